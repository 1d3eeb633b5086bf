// Starts the sandbox host in program mode as a real process (through execa) and reads back
// what it did: its exit, the signal that killed it, the calls' results, the write it tore.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import type { SideEffect } from "../../../lab/task.js";
import type { ChannelMessage, KillRule, ProgramConfig, Torn } from "../runtime/process.js";
import type { CallResult, Step } from "../messages/host.js";
import { deathCause, exitSignal, formatSeconds, heapMiB, limitedCommand, type Limits } from "./limits.js";
import { killTree, watchdog } from "./watchdog.js";
import { targetEnv } from "../identity/target-env.js";
import type { UserLease } from "../identity/target-user.js";

export interface ProgramOutcome {
  exitCode?: number;
  signal?: string;
  timedOut: boolean;
  /** The end of what the process printed (the last `outputKiB` of each stream). */
  stdout: string;
  stderr: string;
  /** How many bytes it printed in all, on both streams. */
  printed: number;
  results: CallResult[] | null;
  /** The lab task's side effects, in order, as the process reported them on its channel. */
  effects: SideEffect[];
  /** How many changes to the disk the target made (when it exited by itself). */
  changes: number | null;
  /** The write that was torn when the process was killed mid-write. */
  torn: Torn | null;
  limits: Limits;
}

/** How long a runtime may outlive the shell above it before the grader kills it. */
const ORPHAN_GRACE_MS = 500;

/** Makes a scenario folder (work/, tmp/, cwd/) under `root`. */
export function makeScenarioFolder(root: string): string {
  for (const sub of ["work", "tmp", "cwd"]) fs.mkdirSync(path.join(root, sub), { recursive: true });
  return root;
}

export interface ProcessRequest {
  bundle: string;
  entry: string;
  targetDir: string;
  root: string;
  cwd?: string;
  steps?: Step[];
  argv?: string[];
  kill?: KillRule;
  limits: Limits;
  /** Kills the process when the check is abandoned. */
  signal?: AbortSignal;
  /** The user the process runs as (the owner of `root`), when not the grader's own. */
  lease?: UserLease;
}

/** Runs `steps` (or the program, with `argv`) in a new process over the folder `root`, under the limits. */
export async function runProcess(hostFile: string, opts: ProcessRequest): Promise<ProgramOutcome> {
  const { limits, signal, lease, ...rest } = opts;
  const config: ProgramConfig = { ...rest, callMs: limits.callMs };
  const command = limitedCommand(limits, process.execPath, [`--max-old-space-size=${heapMiB(limits)}`, hostFile, "--program"], { replaceShell: !!lease?.user });
  const subprocess = execa(command.file, command.args, {
    reject: false,
    input: JSON.stringify(config),
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    buffer: false,
    // It starts in its scenario's folder, with nothing of the grader's in its environment.
    cwd: opts.root,
    env: targetEnv(path.join(opts.root, "cwd")),
    extendEnv: false,
    ...lease?.spawnOptions,
  });
  let runtimePid: number | undefined;
  const outcome: ProgramOutcome = { timedOut: false, stdout: "", stderr: "", printed: 0, results: null, effects: [], changes: null, torn: null, limits };
  const kill = () => killTree(subprocess.pid, runtimePid);
  signal?.addEventListener("abort", kill);
  const dog = watchdog(() => runtimePid ?? subprocess.pid, limits.processMs, () => {
    outcome.timedOut = true;
    kill();
  });
  const stdout = new Tail(limits.outputKiB * 1024);
  const stderr = new Tail(limits.outputKiB * 1024);
  subprocess.stdout!.on("data", (chunk: Buffer) => stdout.add(chunk));
  subprocess.stderr!.on("data", (chunk: Buffer) => stderr.add(chunk));
  let pending = "";
  (subprocess.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString("utf8")).split("\n");
    pending = lines.pop()!; // a process killed mid-message leaves half a line: never read
    for (const line of lines) {
      let message: ChannelMessage;
      try {
        message = JSON.parse(line) as ChannelMessage;
      } catch {
        continue; // not the grader's: the target wrote to the channel itself
      }
      if ("pid" in message) runtimePid = message.pid;
      else if ("effect" in message) outcome.effects.push(message.effect);
      else if ("results" in message) outcome.results = message.results;
      else if ("torn" in message) outcome.torn = message.torn;
      else if ("changes" in message) outcome.changes = message.changes;
    }
  });
  // The shell ended first (the target killed its parent): the runtime below it gets a moment to
  // finish by itself, as it had while a thread of its own checked its parent every half second.
  let orphaned: NodeJS.Timeout | undefined;
  subprocess.once("exit", () => (orphaned = setTimeout(kill, ORPHAN_GRACE_MS)));
  const run = await subprocess;
  clearTimeout(orphaned);
  dog.stop();
  signal?.removeEventListener("abort", kill);
  const died = exitSignal(run.exitCode, run.signal);
  Object.assign(outcome, { exitCode: died ? undefined : run.exitCode, signal: died, stdout: stdout.text(), stderr: stderr.text(), printed: stdout.total + stderr.total });
  return outcome;
}

/** Why a process that should have made all its calls did not, or null; `calls` names them ("its calls"). */
export function unfinished(p: ProgramOutcome, calls = "its calls"): string | null {
  if (p.timedOut) return `the process did not finish within ${formatSeconds(p.limits.processMs)}`;
  const death = deathCause((p.signal ?? null) as NodeJS.Signals | null, p.stderr, p.limits);
  if (p.signal || (death && !p.results)) return `the process ${death ?? `was killed by ${p.signal}`}`;
  if (!p.results) return `the process exited with code ${p.exitCode} before ${calls} finished`;
  return null;
}

/** The last `max` bytes of a stream, and how many it carried in all. */
class Tail {
  private chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.chunks.length > 1 && this.kept - this.chunks[0]!.length >= this.max) this.kept -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.max)).toString("utf8");
  }
}
