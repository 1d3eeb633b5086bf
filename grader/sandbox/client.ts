// The grader's side of a sandbox: starts a host process, sends it requests with a time limit,
// and starts a new one when the target kills or hangs the old one.
import { fork, type ChildProcess } from "node:child_process";
import type { Cut } from "../crash/replay.js";
import type { Trace } from "../crash/trace.js";
import type { HostConfig } from "./host.js";
import type { CrashPoint, ManyReply, Reply, Request, RunReply, Scenario, Step } from "./protocol.js";

/** The host did not answer in time, or died while answering. */
export class SandboxFailure extends Error {
  constructor(
    readonly kind: "timeout" | "died",
    message: string,
  ) {
    super(message);
  }
}

export interface SandboxOptions {
  hostFile: string;
  config: HostConfig;
  /** Time allowed for one request; `runMany` gets this much per crash state on top. */
  timeoutMs: number;
  perCaseMs: number;
}

/** A host process and the traces it has been given. */
export class Sandbox {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private readonly traces = new Map<string, Trace>();
  private nextTrace = 1;
  private outputTail = "";
  /** How many crash states this sandbox rebuilt and recovered from. */
  crashStates = 0;

  constructor(private readonly opts: SandboxOptions) {}

  /** Runs a scenario in fresh folders; with `record`, also returns and keeps its trace. */
  async run(module: string, scenario: Scenario, opts: { record?: boolean; listDisk?: boolean } = {}): Promise<RunReply & { traceId?: string }> {
    if (scenario.from?.length) this.crashStates++;
    const reply = (await this.request({ type: "run", module, scenario, record: !!opts.record, listDisk: !!opts.listDisk })) as RunReply;
    if (!reply.trace) return reply;
    const traceId = `t${this.nextTrace++}`;
    this.traces.set(traceId, reply.trace);
    return { ...reply, traceId };
  }

  /** For each cut of a kept trace (over the disk `base` left): rebuild that crash state, run `steps`, report the calls. */
  async runMany(module: string, traceId: string, cuts: Cut[], steps: Step[], base: CrashPoint[] = [], pid?: number): Promise<ManyReply[]> {
    this.crashStates += cuts.length;
    return (await this.request({ type: "runMany", module, base, traceId, cuts, steps, pid }, cuts.length)) as ManyReply[];
  }

  /** The trace kept under `traceId`. */
  trace(traceId: string): Trace {
    return this.traces.get(traceId)!;
  }

  /** The last lines the target printed, for messages. */
  output(): string {
    return this.outputTail;
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await gone;
    }
  }

  private async request(req: Request, cases = 0): Promise<unknown> {
    await this.start();
    const reply = await this.send(req, this.opts.timeoutMs + cases * this.opts.perCaseMs);
    if (reply.ok) return reply.value;
    if (reply.needTrace && this.traces.has(reply.needTrace)) {
      await this.send({ type: "putTrace", traceId: reply.needTrace, trace: this.traces.get(reply.needTrace)! }, this.opts.timeoutMs);
      return this.request(req, cases);
    }
    throw new Error(`sandbox host error: ${reply.error}`);
  }

  private send(req: Request, timeoutMs: number): Promise<Reply> {
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        void this.close();
        reject(new SandboxFailure("timeout", `did not finish within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.child!.send({ id, req });
    });
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const child = fork(this.opts.hostFile, ["--serve", JSON.stringify(this.opts.config)], {
      serialization: "advanced",
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      execArgv: ["--max-old-space-size=2048"],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.outputTail = (this.outputTail + chunk.toString()).slice(-2000);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    child.on("message", (msg: { id?: number; reply?: Reply }) => {
      if (msg.id === undefined) return;
      const waiter = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      waiter?.resolve(msg.reply!);
    });
    child.once("exit", (code, signal) => {
      if (this.child === child) (this.child = null), (this.ready = null);
      const failure = new SandboxFailure("died", signal ? `was killed by ${signal}` : `exited with code ${code}`);
      for (const waiter of this.waiting.values()) waiter.reject(failure);
      this.waiting.clear();
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (msg: { ready?: boolean }) => {
        if (!msg.ready) return;
        child.off("message", onMessage);
        resolve();
      };
      child.on("message", onMessage);
      child.once("exit", (code, signal) => reject(new SandboxFailure("died", `the sandbox stopped while starting (${signal ?? code})`)));
    });
    return this.ready;
  }
}
