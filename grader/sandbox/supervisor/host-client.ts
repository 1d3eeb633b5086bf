// The grader's side of a sandbox: starts a host process, sends it requests with a time limit,
// and starts a new one when the target kills or hangs the old one.
import type { Serializable } from "node:child_process";
import type { Cut } from "../../crash/model.js";
import type { Trace } from "../../crash/model.js";
import { silenceMs } from "./limits.js";
import type { ProcessorClock } from "./processor-clock.js";
import { formatSeconds, type Limits } from "../messages/limits.js";
import { Child } from "./child.js";
import type { Activity } from "./process-state.js";
import { UserLease } from "../identity/target-user.js";
import type { CrashPoint, HostConfig, ManyReply, Reply, Request, RunReply, Scenario } from "../messages/host.js";
import type { ScenarioStep } from "../messages/scenario.js";

/** The host stopped responding, or died while answering (the message says why, in the student's terms). */
export class SandboxFailure extends Error {
  constructor(
    readonly kind: "timeout" | "died",
    message: string,
    /** What went wrong, the same for every submission that meets it: a failure's outcome (grading/told.ts). */
    readonly outcome: string = kind === "timeout" ? "stopped responding" : "died",
  ) {
    super(message);
  }
}

/** The failure of a call made after its check ran out of time and stopped its processes: its words are its outcome. */
export function checkStopped(): SandboxFailure {
  const words = "was stopped: the check ran out of time";
  return new SandboxFailure("died", words, words);
}

export interface SandboxOptions {
  hostFile: string;
  config: HostConfig;
  limits: Limits;
  /** Told when the target met a limit (a call timed out, the host died or went silent). */
  onLimit?: () => void;
  /** The user the host runs as (its own when the grade has separate users); given back when the sandbox is retired. */
  lease?: UserLease;
  /** The check's clock, which counts the host's processor time, and its wall time while it is blocked in a request. */
  clock?: ProcessorClock;
}

/** A host process and the traces it has been given. */
export class Sandbox {
  private child: Child | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void; alive: () => void }>();
  /** The call the host started last, for messages about a host that died or went silent. */
  private lastCall: string | null = null;
  private readonly traces = new Map<string, Trace>();
  private nextTrace = 1;
  /**
   * Each trace's key in its case ("c1", "c2", ...; "p1", ... before the first case): what its
   * processes' random streams are drawn from, so a case replayed alone draws what it drew in the grade.
   */
  private readonly traceKeys = new Map<string, string>();
  private tracesInCase = 0;
  private caseBegun = false;
  /** Set by `beginCase` until the host has been told. */
  private newCase = false;
  private retired = false;
  /** Stops the check's clock from counting the current host. */
  private uncount: (() => void) | undefined;
  /** How many crash states this sandbox rebuilt and recovered from. */
  crashStates = 0;

  private readonly lease: UserLease;
  /** Settles once the last host closed and what it left running has ended. */
  private closed: Promise<void> = Promise.resolve();

  constructor(private readonly opts: SandboxOptions) {
    this.lease = opts.lease ?? UserLease.of(undefined);
  }

  /**
   * A new case of a property begins: its traces are counted from 1 again and its processes get
   * their ids from where the first case's did, as in a replay of this case alone.
   */
  beginCase(): void {
    this.caseBegun = true;
    this.tracesInCase = 0;
    this.newCase = true;
  }

  /** Runs a scenario in fresh folders; with `record`, also returns and keeps its trace. */
  async run(module: string, scenario: Scenario, opts: { record?: boolean; listDisk?: boolean } = {}): Promise<RunReply & { traceId?: string }> {
    if (scenario.from?.length) this.crashStates++;
    const keyed = scenario.from ? { ...scenario, from: this.keyed(scenario.from) } : scenario;
    const reply = (await this.request({ type: "run", module, scenario: keyed, record: !!opts.record, listDisk: !!opts.listDisk })) as RunReply;
    if (reply.results.some((r) => r.status === "timed-out")) this.opts.onLimit?.();
    if (!reply.trace) return reply;
    const traceId = `t${this.nextTrace++}`;
    this.traces.set(traceId, reply.trace);
    this.traceKeys.set(traceId, `${this.caseBegun ? "c" : "p"}${++this.tracesInCase}`);
    return { ...reply, traceId };
  }

  /** Crash points with their traces' keys in their case. */
  private keyed(points: CrashPoint[]): CrashPoint[] {
    return points.map((p) => ({ ...p, key: this.traceKeys.get(p.traceId) }));
  }

  /**
   * For each cut of a kept trace (over the disk `base` left): rebuild that crash state, run `steps`,
   * report the calls. `pid` is the first instance's process id, `inspectGit` a folder whose git
   * history to read after the steps (see Scenario).
   */
  async runMany(module: string, traceId: string, cuts: Cut[], steps: ScenarioStep[], opts: { base?: CrashPoint[]; pid?: number; inspectGit?: string } = {}): Promise<ManyReply[]> {
    const { base = [], pid, inspectGit } = opts;
    const replies = (await this.request({ type: "runMany", module, base: this.keyed(base), traceId, traceKey: this.traceKeys.get(traceId), cuts, steps, pid, inspectGit })) as ManyReply[];
    // The host stops a batch at the first recovery that timed out: only the states it ran count.
    this.crashStates += replies.length;
    if (replies.some((r) => r.results.some((c) => c.status === "timed-out"))) this.opts.onLimit?.();
    return replies;
  }

  /** The trace kept under `traceId`. */
  trace(traceId: string): Trace {
    return this.traces.get(traceId)!;
  }

  /** Closes the host for good: later requests fail (a check that was abandoned must not start it again). */
  async retire(): Promise<void> {
    this.retired = true;
    await this.close();
    this.lease.release();
  }

  async close(): Promise<void> {
    const child = this.child;
    this.uncount?.();
    this.uncount = undefined;
    this.child = null;
    this.ready = null;
    const closed = (async () => {
      if (child?.running) await child.stop();
      // What the target started and left running (a daemon out of the host's tree) ends with it.
      this.lease.sweep();
    })();
    // The next host (same user) starts only once this one and its leftovers are gone: the sweep
    // ends every process of the user.
    this.closed = this.closed.then(() => closed).catch(() => {});
    await closed;
  }

  private async request(req: Request): Promise<unknown> {
    try {
      await this.start();
      if (this.newCase && (req.type === "run" || req.type === "runMany")) {
        req = { ...req, newCase: true };
        this.newCase = false;
      }
      const reply = await this.send(req);
      if (reply.ok) return reply.value;
      if (reply.needTrace && this.traces.has(reply.needTrace)) {
        await this.send({ type: "putTrace", traceId: reply.needTrace, trace: this.traces.get(reply.needTrace)! });
        return this.request(req);
      }
      throw new Error(`sandbox host error: ${reply.error}`);
    } catch (error) {
      if (error instanceof SandboxFailure) this.opts.onLimit?.();
      throw error;
    }
  }

  /**
   * Sends one request; the host is killed when it stays silent and is blocked in a system call, or
   * has used the silence in processor time without answering: code no call's limit holds, such as
   * a timer's (see watchdog.ts).
   */
  private send(req: Request): Promise<Reply> {
    const id = this.nextId++;
    const { limits } = this.opts;
    const silence = silenceMs(limits);
    return new Promise<Reply>((resolve, reject) => {
      const dog = this.child!.watch(silence, (activity) => {
        this.waiting.delete(id);
        void this.close();
        reject(new SandboxFailure("timeout", silentStory(formatSeconds(silence), this.lastCall, activity), activity === "running" ? "kept running outside any call's time limit" : "stopped responding"));
      });
      this.waiting.set(id, {
        resolve: (reply) => (dog.stop(), resolve(reply)),
        reject: (error) => (dog.stop(), reject(error)),
        alive: () => dog.reset(),
      });
      this.lastCall = null;
      this.child!.send({ id, req } as Serializable);
    });
  }

  private start(): Promise<void> {
    if (this.retired) return Promise.reject(checkStopped());
    if (this.ready) return this.ready;
    this.ready = this.closed.then(() => this.launch());
    return this.ready;
  }

  /** Starts the host process; resolves once it says it is ready. */
  private launch(): Promise<void> {
    if (this.retired) return Promise.reject(checkStopped());
    const { limits, hostFile, config } = this.opts;
    // The host's folders are the target's (the host makes its scenarios there); it starts in them, with nothing else to follow.
    const { work, tmpBase } = config;
    this.lease.folder(work);
    if (tmpBase) this.lease.folder(tmpBase);
    const child = Child.start({ hostFile, mode: "serve", args: [JSON.stringify(config)], limits, lease: this.lease, cwd: work, home: work });
    this.child = child;
    this.uncount = this.opts.clock?.count({ pid: () => child.watchedPid(), waitedOn: () => this.child === child && this.waiting.size > 0 });
    child.onMessage((msg: { id?: number; reply?: Reply; progress?: string }) => {
      if (msg.id === undefined) return;
      const waiter = this.waiting.get(msg.id);
      if (msg.progress) return (this.lastCall = msg.progress), waiter?.alive();
      this.waiting.delete(msg.id);
      waiter?.resolve(msg.reply!);
    });
    child.onExit((code, signal) => {
      if (this.child === child) (this.child = null), (this.ready = null);
      // The shell above the runtime ended (the target may have killed its parent): end the runtime too.
      child.endRuntime();
      const failure = new SandboxFailure("died", hostDeath(child, code, signal, this.lastCall), child.deathCause(code, signal) ?? "reached the real process.exit");
      for (const waiter of this.waiting.values()) waiter.reject(failure);
      this.waiting.clear();
    });
    return new Promise<void>((resolve, reject) => {
      const stopListening = child.onMessage((msg: { ready?: boolean; pid?: number }) => {
        if (!msg.ready) return;
        child.runtimePid = msg.pid;
        stopListening();
        resolve();
      });
      child.onExit((code, signal) => reject(new SandboxFailure("died", `stopped while starting (${signal ?? code})`, "stopped while starting")));
    });
  }
}

/**
 * Why a host that went silent for `silence` was stopped, from what it was doing then: running
 * code outside any call's limit (V8 stops a call's own loop, so this is code a timer or a callback
 * runs), or blocked. Where that cannot be read (no /proc), both are named.
 */
function silentStory(silence: string, call: string | null, activity: Activity | null): string {
  const during = call ? ` during ${call}` : "";
  if (activity === "running") return `kept running for ${silence}${during} without answering, outside any call's time limit (did a timer or a callback left running never end?)`;
  const blocked = "is a call blocked waiting for something, such as a pipe, a lock or a child process";
  return `stopped responding for ${silence}${during} (${activity === null ? `${blocked}, or did a timer left running never end?` : `${blocked}?`})`;
}

/** Why the host process ended, in the student's terms, and during which call. */
function hostDeath(child: Child, code: number | null, signal: NodeJS.Signals | null, call: string | null): string {
  const during = call ? ` during ${call}` : "";
  const cause = child.deathCause(code, signal);
  if (cause) return `${cause}${during}`;
  return `exited with code ${code}${during}: the real process.exit was reached (through globalThis.process), which ends the whole process instead of the call`;
}
