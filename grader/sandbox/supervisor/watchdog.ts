// A timer over a process that has gone silent, which decides from what the process is doing
// (process-state.ts) rather than from how long the silence lasted. When the silence has lasted
// `ms`, the process is read twice, a second apart: one blocked in a system call is stopped at
// once; one running code under a time limit of its own (V8's, inside a sandbox host) is left to
// that limit, whose story is the call's own; one that runs without such a limit, or waits for a
// program it runs, gets the time again while the machine kept it from running (a few times at
// most). Nothing is read before the silence ends: a host resets its watchdog at every call. Where
// /proc is not there (macOS) it is a plain timer.
import fs from "node:fs";
import { readMachine, saturatedSince, type MachineReading } from "../busy-machine.js";
import { activityBetween, readProcess, type Activity, type ProcessReading } from "./process-state.js";

/** How many times a starved process gets the time again. */
const EXTENSIONS = 3;

/** How long a silent process is watched to tell what it does: long enough for its processor time to count 100 ticks. */
const SAMPLE_MS = 1_000;

export interface Watchdog {
  /** Starts the time again (the process made progress). */
  reset(): void;
  stop(): void;
}

export interface WatchdogOptions {
  /**
   * How long in all, since its last progress, a process found running may stay silent: the end of
   * the time limit it holds its own code to (V8 stops the call then, and answers). Without it, a
   * running process is held to `ms` like any other.
   */
  runningMayTakeMs?: () => number;
}

/**
 * Calls `expire` once the process `pid()` has been silent for `ms` and what it does (its
 * `Activity`, null where it cannot be read) says it will not answer by itself.
 */
export function watchdog(pid: () => number | undefined, ms: number, expire: (activity: Activity | null) => void, opts: WatchdogOptions = {}): Watchdog {
  let extensions = 0;
  let silentSince = performance.now();
  let timer: NodeJS.Timeout;
  const check = () => {
    const first = reading(pid());
    if (!first) return expire(null);
    const machine = readMachine();
    timer = setTimeout(() => decide(first, reading(pid()), machine), SAMPLE_MS);
  };
  const decide = (first: ProcessReading, second: ProcessReading | null, machine: MachineReading | null) => {
    const activity = second ? activityBetween(first, second) : null;
    const silent = performance.now() - silentSince;
    const limitEnds = opts.runningMayTakeMs?.() ?? 0;
    // A loop under V8's limit ends when that limit does, however busy the machine: not before.
    if (activity === "running" && silent < limitEnds) return (timer = setTimeout(check, Math.max(0, Math.min(ms, limitEnds - silent) - SAMPLE_MS)));
    // Waiting for a processor (a loop given little of one, a program it runs): more time, a few times.
    const starved = activity === "waiting-for-work" || (activity === "running" && (second!.cpuMs - first.cpuMs < (second!.at - first.at) / 4 || saturatedSince(machine)));
    if (starved && extensions++ < EXTENSIONS) return (timer = setTimeout(check, ms));
    expire(activity);
  };
  timer = setTimeout(check, ms);
  return {
    reset() {
      clearTimeout(timer);
      silentSince = performance.now();
      timer = setTimeout(check, ms);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** The process's state and processor time, or null while it has no pid or cannot be read. */
function reading(pid: number | undefined): ProcessReading | null {
  return pid === undefined ? null : readProcess(pid);
}

/** SIGKILLs `pids` and every process below them that is still their descendant (Linux), quietly. */
export function killTree(...pids: (number | undefined)[]): void {
  pids = pids.filter((pid) => pid === undefined || stillRunning(pid));
  const all: number[] = [];
  const walk = (pid: number) => {
    all.push(pid);
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) walk(Number(child));
    } catch {}
  };
  for (const pid of pids) if (pid) walk(pid);
  for (const pid of all.reverse()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}

/** False for a process id that has ended (or was reused by a program other than the grader's host). */
function stillRunning(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("host.cjs") || fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sh";
  } catch {
    return process.platform !== "linux";
  }
}
