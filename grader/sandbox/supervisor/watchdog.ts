// A timer over a process that has gone silent, which decides from what the process is doing
// and what it has used (process-state.ts), never from how busy the machine is: the same code
// meets it after the same work on a quiet machine and on a busy one. When the silence has lasted
// `ms`, the process is read twice, a second apart. One blocked in a system call (waiting uses no
// processor, so its limit is the wall clock's) is stopped at once. One running code of its own,
// or waiting for a program it runs that still works, is stopped once it and its programs have
// used `ms` of processor time since the silence began: a loop inside a call meets that call's own
// limit first (a sandbox host holds each call to its processor time) and answers. Nothing is read
// before the silence ends but the processor time at its start: a host resets its watchdog at
// every call. Where /proc is not there (macOS) it is a plain timer.
import fs from "node:fs";
import { activityBetween, readProcess, type Activity, type ProcessReading } from "./process-state.js";

/** How long a silent process is watched to tell what it does: long enough for its processor time to count 100 ticks. */
const SAMPLE_MS = 1_000;

/** How often, at most, a reset reads the processor time the silence starts from (resets come with every call). */
const BASELINE_EVERY_MS = 100;

export interface Watchdog {
  /** Starts the time again (the process made progress). */
  reset(): void;
  stop(): void;
}

/**
 * Calls `expire` once the process `pid()` has been silent for `ms` and what it does (its
 * `Activity`, null where it cannot be read) says it will not answer by itself: blocked, or
 * running (itself or its programs) for `ms` of processor time.
 */
export function watchdog(pid: () => number | undefined, ms: number, expire: (activity: Activity | null) => void): Watchdog {
  let timer: NodeJS.Timeout;
  // The processor time the process and its programs had used when the silence began, and when that was read.
  let baseline = { cpuMs: 0, at: -Infinity };
  const readBaseline = () => {
    // Counted as `decide` counts it: the process, and its programs ended or still running.
    const first = reading(pid(), { mainThreadOnly: true });
    baseline = { cpuMs: first ? first.cpuMs + first.programsCpuMs : 0, at: performance.now() };
  };
  const check = () => {
    const first = reading(pid());
    if (!first) return expire(null);
    timer = setTimeout(() => decide(first, reading(pid())), SAMPLE_MS);
  };
  const decide = (first: ProcessReading, second: ProcessReading | null) => {
    if (!second) return expire(null);
    const activity = activityBetween(first, second);
    if (activity === "blocked") return expire(activity);
    const used = second.cpuMs + second.programsCpuMs - baseline.cpuMs;
    if (used >= ms) return expire(activity);
    timer = setTimeout(check, Math.max(SAMPLE_MS, ms - used - SAMPLE_MS));
  };
  readBaseline();
  timer = setTimeout(check, ms);
  return {
    reset() {
      clearTimeout(timer);
      if (performance.now() - baseline.at > BASELINE_EVERY_MS) readBaseline();
      timer = setTimeout(check, ms);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** The process's state and processor time, or null while it has no pid or cannot be read. */
function reading(pid: number | undefined, opts?: { mainThreadOnly?: boolean }): ProcessReading | null {
  return pid === undefined ? null : readProcess(pid, opts);
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
