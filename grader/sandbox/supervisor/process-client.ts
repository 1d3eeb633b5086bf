// Starts the sandbox host in process mode, a real process of the target's, and reads back what
// it did: its exit, the signal that killed it, the calls' results, the write it tore.
import fs from "node:fs";
import path from "node:path";
import type { SideEffect } from "../../../lab/task.js";
import type { KillRule, ProcessConfig, ProcessMessage, Torn } from "../messages/process.js";
import type { CallResult, ScenarioStep } from "../messages/scenario.js";
import { deathCause, exitSignal } from "./limits.js";
import { formatSeconds, type Limits } from "../messages/limits.js";
import { Child } from "./child.js";
import type { Activity } from "./process-state.js";
import type { UserLease } from "../identity/target-user.js";
import type { ProcessorClock } from "./processor-clock.js";

export interface ProcessOutcome {
  exitCode?: number;
  signal?: string;
  timedOut: boolean;
  /** What the process was doing when it was stopped for not finishing (process-state.ts), null where that could not be read. */
  stuck?: Activity | null;
  /** The end of what the process printed (the last `outputKiB` of each stream). */
  stdout: string;
  stderr: string;
  /** How many bytes it printed in all, on both streams. */
  printed: number;
  /** How many bytes it printed on its standard output: more than `stdout` holds once its start was dropped. */
  stdoutBytes: number;
  results: CallResult[] | null;
  /** The lab task's side effects, in order, as the process reported them on its channel. */
  effects: SideEffect[];
  /** How many changes to the disk the target made (when it exited by itself). */
  changes: number | null;
  /** The write that was torn when the process was killed mid-write. */
  torn: Torn | null;
  /** The process id the target saw as \`process.pid\` (the runtime's, below its shell), once it reported it. */
  pid: number | null;
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
  steps?: ScenarioStep[];
  argv?: string[];
  kill?: KillRule;
  /** The lab task's steps (ProcessConfig's). */
  labSteps?: number;
  limits: Limits;
  /** Kills the process when the check is abandoned. */
  signal?: AbortSignal;
  /** The user the process runs as (the owner of `root`), when not the grader's own. */
  lease?: UserLease;
  /** The check's clock, which counts the process's processor time, and its wall time while it is blocked. */
  clock?: ProcessorClock;
}

/** Runs `steps` (or the program, with `argv`) in a new process over the folder `root`, under the limits. */
export async function runProcess(hostFile: string, opts: ProcessRequest): Promise<ProcessOutcome> {
  const { limits, signal, lease, clock, ...rest } = opts;
  const config: ProcessConfig = { ...rest, callMs: limits.callMs };
  // It starts in its scenario's folder, with nothing of the grader's in its environment.
  const child = Child.start({ hostFile, mode: "process", limits, lease, cwd: opts.root, home: path.join(opts.root, "cwd"), input: JSON.stringify(config) });
  const outcome: ProcessOutcome = { timedOut: false, stdout: "", stderr: "", printed: 0, stdoutBytes: 0, results: null, effects: [], changes: null, torn: null, pid: null, limits };
  const uncount = clock?.count({ pid: () => child.watchedPid(), waitedOn: () => true });
  const kill = () => (uncount?.(), child.kill());
  signal?.addEventListener("abort", kill);
  const dog = child.watch(limits.processMs, (activity) => {
    outcome.timedOut = true;
    outcome.stuck = activity;
    kill();
  });
  child.onReports<ProcessMessage>((messages) => {
    for (const message of messages) {
      if ("pid" in message) child.runtimePid = outcome.pid = message.pid;
      else if ("effect" in message) outcome.effects.push(message.effect);
      else if ("results" in message) outcome.results = message.results;
      else if ("torn" in message) outcome.torn = message.torn;
      else if ("changes" in message) outcome.changes = message.changes;
    }
  });
  // The shell ended first (the target killed its parent): the runtime below it gets a moment to
  // finish by itself, as it had while a thread of its own checked its parent every half second.
  let orphaned: NodeJS.Timeout | undefined;
  child.onExit(() => (orphaned = setTimeout(kill, ORPHAN_GRACE_MS)));
  const run = await child.ended();
  uncount?.();
  clearTimeout(orphaned);
  dog.stop();
  signal?.removeEventListener("abort", kill);
  const died = exitSignal(run.exitCode, run.signal);
  const stdout = child.stdout!;
  Object.assign(outcome, { exitCode: died ? undefined : run.exitCode, signal: died, stdout: stdout.text(), stderr: child.stderr.text(), printed: stdout.total + child.stderr.total, stdoutBytes: stdout.total });
  return outcome;
}

/** Why a process that should have made all its calls did not, or null; `calls` names them ("its calls"). */
export function unfinished(p: ProcessOutcome, calls = "its calls"): string | null {
  if (p.timedOut) return `the process ${notFinished(p)}`;
  const death = deathCause((p.signal ?? null) as NodeJS.Signals | null, p.stderr, p.limits);
  if (p.signal || (death && !p.results)) return `the process ${death ?? `was killed by ${p.signal}`}`;
  if (!p.results) return `the process exited with code ${p.exitCode} before ${calls} finished`;
  return null;
}

/**
 * "did not finish within 15 s", and what kept it going, as the process itself said when it was
 * stopped: its own code running (a loop), a program it started still working, or neither (asleep:
 * a timer, a server or an open handle keeps an event loop alive; a call blocked on a pipe).
 */
export function notFinished(p: ProcessOutcome): string {
  const within = `did not finish within ${formatSeconds(p.limits.processMs)}`;
  if (p.stuck === "running") return `${within}: it was still running code of its own (is there a loop that never ends?)`;
  if (p.stuck === "waiting-for-work") return `${within}: a program it started was still running (does that program end by itself?)`;
  return `${within} (is a timer, a server or an open handle keeping the process alive?)`;
}
