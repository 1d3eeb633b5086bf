// Starts a child that runs the target's code, in any of its modes (messages/launch.ts), the one
// way every mode is started: through execa, below the shell of `limitedCommand` (memory and
// file-size limits, the V8 heap limit), as the lease's user and, when the grade cuts it, without
// the network (identity/network.ts), in a folder of that user's, with nothing of the grader's in
// its environment. It keeps the end of what the child prints, reads
// the JSON lines of its report pipe, and kills it with everything below it.
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { execa, type ResultPromise } from "execa";
import type { Serializable } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { CPU_CAUSES_ENV, cpuCausesEnv } from "../messages/cpu-causes.js";
import { ACTOR_IN_FD, MODE_FLAGS, PROFILE_EXIT_SIGNAL, REPORT_FD, type Mode } from "../messages/launch.js";
import type { Limits } from "../messages/limits.js";
import { targetEnv } from "../identity/target-env.js";
import type { UserLease } from "../identity/target-user.js";
import { deathCause, exitSignal, heapMiB, limitedCommand } from "./limits.js";
import { Tail } from "./tail.js";
import { killTree, watchdog, type Watchdog } from "./watchdog.js";
import type { Activity } from "./process-state.js";

export interface ChildOptions {
  /** The host bundle (supervisor/build-host.ts). */
  hostFile: string;
  mode: Mode;
  /** What follows the mode's flag on the command line (a host's configuration). */
  args?: string[];
  limits: Limits;
  /** The user it runs as, when not the grader's own. */
  lease?: UserLease;
  /** The folder it starts in, one its user may enter. */
  cwd: string;
  /** The folder its environment names as its home and working folder (see targetEnv). */
  home: string;
  /** What it reads on standard input (its configuration), which then ends. */
  input?: string;
}

/**
 * How each mode's child is wired: its standard streams and pipes, and how much of what it prints
 * is kept. A host's and an actor's output is the runtime's own (the target's is dropped), kept
 * only to tell why the child died; a process's is the target's, and a message may quote it.
 */
/** How much of a host's or an actor's output is kept: enough for the runtime's own last words (an out-of-memory error). */
const RUNTIME_TAIL_CHARS = 4000;

type Stdio = readonly ["pipe" | "ignore", "pipe" | "ignore", "pipe" | "ignore", ...("pipe" | "ignore")[]];

const WIRING: Record<Mode, { stdio: Stdio; ipc?: true; tails: (limits: Limits) => { stdout: Tail | null; stderr: Tail } }> = {
  // Both streams in one tail: a host prints only when its runtime fails.
  serve: { stdio: ["ignore", "pipe", "pipe"], ipc: true, tails: () => {
    const both = new Tail(RUNTIME_TAIL_CHARS, "chars");
    return { stdout: both, stderr: both };
  } },
  process: { stdio: ["pipe", "pipe", "pipe", "pipe"], tails: (limits) => ({ stdout: new Tail(limits.outputKiB * 1024), stderr: new Tail(limits.outputKiB * 1024) }) },
  actor: { stdio: ["pipe", "ignore", "pipe", "pipe", "pipe"], tails: () => ({ stdout: null, stderr: new Tail(RUNTIME_TAIL_CHARS, "chars") }) },
};

/** A child that runs the target's code, and the runtime inside it (below a shell, the child is that shell). */
export class Child {
  /** The runtime's own process id, once it has told it (its parent is a shell, see limitedCommand). */
  runtimePid: number | undefined;
  /** The end of what it printed on each stream (one tail for both, for a host; none for an actor's standard output). */
  readonly stdout: Tail | null;
  readonly stderr: Tail;

  private constructor(
    private readonly subprocess: ResultPromise,
    private readonly limits: Limits,
    tails: { stdout: Tail | null; stderr: Tail },
  ) {
    ({ stdout: this.stdout, stderr: this.stderr } = tails);
  }

  /** Starts the child in `opts.mode`, under the limits. */
  static start(opts: ChildOptions): Child {
    const { limits, lease } = opts;
    const wiring = WIRING[opts.mode];
    const limited = limitedCommand(limits, process.execPath, [`--max-old-space-size=${heapMiB(limits)}`, ...profileFlags(), opts.hostFile, MODE_FLAGS[opts.mode], ...(opts.args ?? [])], { replaceShell: !!lease?.user });
    const command = lease ? lease.spawn(limited) : { ...limited, options: {} };
    const subprocess = execa(command.file, command.args, {
      reject: false,
      buffer: false,
      stdio: wiring.stdio,
      ...(wiring.ipc ? { ipc: true, serialization: "advanced" as const } : {}),
      ...(opts.input === undefined ? {} : { input: opts.input }),
      cwd: opts.cwd,
      env: { ...targetEnv(opts.home), ...cpuCausesEnv() },
      extendEnv: false,
      ...command.options,
    });
    const child = new Child(subprocess, limits, wiring.tails(limits));
    // A killed child breaks its pipes: that shows as its exit, never as an error of the grader's.
    for (const stream of subprocess.stdio) stream?.on("error", () => {});
    subprocess.stdout?.on("data", (chunk: Buffer) => child.stdout!.add(chunk, "stdout"));
    subprocess.stderr!.on("data", (chunk: Buffer) => child.stderr.add(chunk, "stderr"));
    return child;
  }

  /** The process the grader started: the shell above the runtime (or the runtime, where there is no shell). */
  get pid(): number | undefined {
    return this.subprocess.pid;
  }

  /** The process that runs the target's code: the runtime, or the shell above it until the runtime has told its id. */
  watchedPid(): number | undefined {
    return this.runtimePid ?? this.subprocess.pid;
  }

  /** Whether it has not exited yet. */
  get running(): boolean {
    return this.subprocess.exitCode === null && this.subprocess.signalCode === null;
  }

  /** Calls `then` once it has exited, with its exit code or the signal that ended it. */
  onExit(then: (code: number | null, signal: NodeJS.Signals | null) => void): void {
    this.subprocess.once("exit", then);
  }

  /** Resolves once it has exited and its pipes are closed, with its exit code or the signal that ended it. */
  async ended(): Promise<{ exitCode?: number; signal?: string }> {
    const { exitCode, signal } = await this.subprocess;
    return { exitCode, signal };
  }

  /** SIGKILLs the runtime and the shell above it, and every process below them. */
  kill(): void {
    killTree(this.subprocess.pid, this.runtimePid);
  }

  /** Kills it (see `kill`) and resolves once it has exited. */
  async stop(): Promise<void> {
    const gone = new Promise((r) => this.subprocess.once("exit", r));
    if ((profileFlags().length > 0 || process.env[CPU_CAUSES_ENV]) && this.running) await this.endProfiled(gone);
    this.kill();
    await gone;
  }

  /** Asks a profiled runtime to exit, so that it writes its profile (or its processor time by cause), and waits a few seconds for it. */
  private async endProfiled(gone: Promise<unknown>): Promise<void> {
    try {
      process.kill(this.runtimePid ?? this.subprocess.pid!, PROFILE_EXIT_SIGNAL);
    } catch {}
    await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000).unref())]);
  }

  /** SIGKILLs the runtime alone, once the shell above it has ended (the target may have killed its parent). */
  endRuntime(): void {
    killTree(this.runtimePid);
  }

  /** A watchdog over the runtime (over the shell until the runtime told its id): `expire`, with what it was doing, once it is stuck for `ms`. */
  watch(ms: number, expire: (activity: Activity | null) => void): Watchdog {
    return watchdog(() => this.watchedPid(), ms, expire);
  }

  /**
   * Calls `take` with the messages of each chunk read from the report pipe, one JSON line each. A
   * line that is not JSON is not the grader's (the target wrote to the pipe itself), and a
   * process killed mid-message leaves half a line: neither is read.
   */
  onReports<M>(take: (messages: M[]) => void): void {
    let partial = "";
    // One decoder for the whole stream: a character split between two chunks stays one character.
    const decoder = new StringDecoder("utf8");
    (this.subprocess.stdio[REPORT_FD] as Readable).on("data", (chunk: Buffer) => {
      const lines = (partial + decoder.write(chunk)).split("\n");
      partial = lines.pop()!;
      const messages: M[] = [];
      for (const line of lines) {
        try {
          messages.push(JSON.parse(line) as M);
        } catch {
          continue;
        }
      }
      take(messages);
    });
  }

  /** Writes `message` as one JSON line on an actor's command pipe. */
  tell(message: unknown): void {
    (this.subprocess.stdio[ACTOR_IN_FD] as Writable).write(JSON.stringify(message) + "\n");
  }

  /** A message to the host through Node's IPC. */
  send(message: Serializable): void {
    this.subprocess.send(message);
  }

  /** Calls `take` with each message the host sends through Node's IPC. */
  onMessage<M>(take: (message: M) => void): () => void {
    this.subprocess.on("message", take);
    return () => this.subprocess.off("message", take);
  }

  /** Why it died (`code`, `signal`: its exit), when a limit or a crash explains it; null for a plain exit. */
  deathCause(code: number | null, signal: NodeJS.Signals | null): string | null {
    return deathCause(exitSignal(code, signal) ?? null, this.stderr.text(), this.limits);
  }
}

/**
 * With GRADE_CPU_PROFILE=<folder> (a developer's tool: where a grade's time goes), each child
 * writes a V8 CPU profile there when it ends; a child the grader stops is asked to exit first.
 */
function profileFlags(): string[] {
  const folder = process.env.GRADE_CPU_PROFILE;
  // Sampled every 100 µs, not V8's 1 ms: a recovery takes a fraction of a millisecond, and a profile
  // should see the target's calls, not only the host's.
  return folder ? ["--cpu-prof", "--cpu-prof-interval=100", `--cpu-prof-dir=${path.resolve(folder)}`] : [];
}
