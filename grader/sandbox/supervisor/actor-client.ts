// The grader's side of an actor process (runtime/actor.ts): starts it under the limits, hands it calls,
// and lets its file-system operations through one at a time.
import type { ActorConfig } from "../messages/actor.js";
import { EVERY_NAME, type ActorCall, type ActorMessage } from "../messages/actor.js";
import { formatSeconds, type Limits } from "../messages/limits.js";
import { Child } from "./child.js";
import type { UserLease } from "../identity/target-user.js";

/** Where an actor runs: as which user, starting in which folder (one that user owns). */
export interface ActorPlace {
  lease?: UserLease;
  folder: string;
}

/** What an actor did next: it waits to make an operation, it finished its call, or it is gone. */
export type ActorEvent = Exclude<ActorMessage, { pid: number }> | { gone: string };

/** One actor process, reused call after call. */
export class Actor {
  private readonly queue: ActorMessage[] = [];
  private wake: (() => void) | null = null;
  private exited: string | null = null;
  /** The call in progress, for messages ("atomicCheckpoint"). */
  private current = "";
  private closing = false;
  private ranProgram = false;

  private constructor(private readonly child: Child, private readonly limits: Limits, private readonly onLimit: () => void) {}

  /** Starts an actor over the target bundle in `config`; resolves once it is ready. `onLimit` is told when it dies or hangs. */
  static async start(hostFile: string, config: ActorConfig, limits: Limits, onLimit: () => void, place: ActorPlace): Promise<Actor> {
    const child = Child.start({ hostFile, mode: "actor", limits, lease: place.lease, cwd: place.folder, home: place.folder, input: JSON.stringify(config) });
    const actor = new Actor(child, limits, onLimit);
    child.onReports<ActorMessage>((messages) => {
      actor.queue.push(...messages);
      actor.wake?.();
    });
    child.onExit((code, signal) => {
      child.endRuntime();
      const cause = child.deathCause(code, signal);
      const during = actor.current ? ` during ${actor.current}` : "";
      actor.exited ??= `${cause ?? `exited with code ${code} (the real process.exit was reached, through globalThis.process)`}${during}`;
      if (!actor.closing) actor.onLimit();
      actor.wake?.();
    });
    const first = await actor.next(limits.processMs);
    if (!("pid" in first)) throw new Error(`the actor process did not start: ${"gone" in first ? first.gone : "no pid"}`);
    child.runtimePid = first.pid;
    return actor;
  }

  /** True once the process has ended (or was killed): it takes no more calls. */
  get gone(): boolean {
    return this.exited !== null;
  }

  /** The processes of this actor: its runtime and the shell above it. */
  get pids(): number[] {
    return [this.child.pid, this.child.runtimePid].filter((p): p is number => p !== undefined);
  }

  /** The actor's own process id, as its calls see it. */
  get pid(): number {
    return this.child.runtimePid!;
  }

  /** Starts a call; resolves with its first operation (when gated) or its end. */
  call(call: ActorCall): Promise<ActorEvent> {
    this.current = call.name;
    this.send(call);
    return this.event();
  }

  /** Lets the waiting operation through; resolves with what the actor does next. */
  grant(): Promise<ActorEvent> {
    this.send("go");
    return this.event();
  }

  async close(): Promise<void> {
    if (this.exited) return;
    this.closing = true;
    await this.child.stop();
  }

  private send(message: unknown): void {
    if (!this.exited) this.child.tell(message);
  }

  private async event(): Promise<ActorEvent> {
    const message = await this.next(this.limits.callMs);
    if ("pid" in message) return this.event();
    if (("op" in message && message.op.footprint.writes.includes(EVERY_NAME)) || ("done" in message && message.done.touched.writes.includes(EVERY_NAME))) this.ranProgram = true;
    return message;
  }

  /** Whether the actor ran a program since the last time this was asked (a program may leave a process behind). */
  takeRanProgram(): boolean {
    const ran = this.ranProgram;
    this.ranProgram = false;
    return ran;
  }

  /** The next message, or why there is none: the process ended, or stayed silent for `ms`. */
  private next(ms: number): Promise<ActorMessage | { gone: string }> {
    return new Promise((resolve) => {
      const dog = this.child.watch(ms, () => {
        void this.close();
        this.exited ??= `did not make its next file-system call or return within ${formatSeconds(ms)} during ${this.current || "its start"} (is it waiting in a loop, for a file or a lock another process holds?)`;
        this.onLimit();
        this.wake?.();
      });
      const take = () => {
        const message = this.queue.shift();
        if (!message && !this.exited) return;
        dog.stop();
        this.wake = null;
        resolve(message ?? { gone: this.exited! });
      };
      this.wake = take;
      take();
    });
  }
}
