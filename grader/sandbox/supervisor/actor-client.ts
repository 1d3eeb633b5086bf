// The grader's side of an actor process (runtime/actor.ts): starts it under the limits, hands it calls,
// and lets its file-system operations through one at a time.
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { ActorConfig } from "../runtime/actor.js";
import { EVERY_NAME, type ActorCall, type ActorMessage } from "../messages/actor.js";
import { deathCause, exitSignal, formatSeconds, heapMiB, limitedCommand, type Limits } from "./limits.js";
import { killTree, watchdog } from "./watchdog.js";
import { targetEnv } from "../identity/target-env.js";
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
  private runtimePid: number | undefined;
  /** The call in progress, for messages ("atomicCheckpoint"). */
  private current = "";
  private closing = false;
  private ranProgram = false;

  private constructor(private readonly child: ChildProcess, private readonly limits: Limits, private readonly onLimit: () => void) {}

  /** Starts an actor over the target bundle in `config`; resolves once it is ready. `onLimit` is told when it dies or hangs. */
  static async start(hostFile: string, config: ActorConfig, limits: Limits, onLimit: () => void, place: ActorPlace): Promise<Actor> {
    const command = limitedCommand(limits, process.execPath, [`--max-old-space-size=${heapMiB(limits)}`, hostFile, "--actor"], { replaceShell: !!place.lease?.user });
    const child = spawn(command.file, command.args, { stdio: ["pipe", "ignore", "pipe", "pipe", "pipe"], cwd: place.folder, env: targetEnv(place.folder), ...place.lease?.spawnOptions });
    const actor = new Actor(child, limits, onLimit);
    // A killed actor breaks its pipes: that shows as its exit, never as an error of the grader's.
    for (const stream of child.stdio) stream?.on("error", () => {});
    child.stdin!.end(JSON.stringify(config));
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    let partial = "";
    (child.stdio[3] as Readable).on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString("utf8")).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        try {
          actor.queue.push(JSON.parse(line) as ActorMessage);
        } catch {
          continue; // not the grader's: the target wrote to the pipe itself
        }
      }
      actor.wake?.();
    });
    child.once("exit", (code, signal) => {
      killTree(actor.runtimePid);
      const cause = deathCause(exitSignal(code, signal) ?? null, stderr, limits);
      const during = actor.current ? ` during ${actor.current}` : "";
      actor.exited ??= `${cause ?? `exited with code ${code} (the real process.exit was reached, through globalThis.process)`}${during}`;
      if (!actor.closing) actor.onLimit();
      actor.wake?.();
    });
    const first = await actor.next(limits.processMs);
    if (!("pid" in first)) throw new Error(`the actor process did not start: ${"gone" in first ? first.gone : "no pid"}`);
    actor.runtimePid = first.pid;
    return actor;
  }

  /** True once the process has ended (or was killed): it takes no more calls. */
  get gone(): boolean {
    return this.exited !== null;
  }

  /** The processes of this actor: its runtime and the shell above it. */
  get pids(): number[] {
    return [this.child.pid, this.runtimePid].filter((p): p is number => p !== undefined);
  }

  /** The actor's own process id, as its calls see it. */
  get pid(): number {
    return this.runtimePid!;
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
    const gone = new Promise((r) => this.child.once("exit", r));
    killTree(this.child.pid, this.runtimePid);
    await gone;
  }

  private send(message: unknown): void {
    if (!this.exited) (this.child.stdio[4] as Writable).write(JSON.stringify(message) + "\n");
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
      const dog = watchdog(() => this.runtimePid ?? this.child.pid, ms, () => {
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
