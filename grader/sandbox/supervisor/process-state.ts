// What a process that runs the target's code is doing, read from the process itself (/proc,
// Linux), not from how long it has been silent: a silence means one thing on a quiet machine and
// another on a busy one, the state of the process the same on both. It is running code of its
// own (a thread runnable at both readings, or its processor time growing: a loop), waiting for a program it runs
// or for the disk (that work still goes on), or blocked (asleep in a system call with nothing
// below it working: a pipe nobody writes, a lock, Atomics.wait, a child that sleeps). Where /proc
// is not there (macOS) nothing is known, and the watchdog keeps its plain timer.
import fs from "node:fs";
import { statFields, ticks } from "../messages/proc-stat.js";
import { descendants, taskIds } from "../identity/processes.js";

/**
 * The share of the time between two readings that a process must have run to count as running
 * though it was asleep at the second: more than a sleeping process ever uses (an idle event loop
 * with a timer uses well under 1%), less than a loop gets while 20 processes share each processor.
 */
const RUNNING_SHARE = 0.05;

/** What the process and the programs below it were doing at one moment. */
export interface ProcessReading {
  /** When it was read (performance.now()). */
  at: number;
  /** The scheduling state of each of the process's threads: "R" runnable, "S" asleep, "D" waiting for the disk, ... */
  threads: string[];
  /** Processor time the process has used, all its threads, in milliseconds. */
  cpuMs: number;
  /** Processor time of the programs below it: those still running and those that ended and were waited for. */
  programsCpuMs: number;
  /** Whether a program below it is runnable or waiting for the disk now. */
  programBusy: boolean;
}

/** Its own code runs; it waits for work that still goes on (a program it runs, the disk); it is blocked. */
export type Activity = "running" | "waiting-for-work" | "blocked";

/**
 * The process `pid` now, or null where it cannot be read (it has ended, or there is no /proc).
 * With `mainThreadOnly`, what its main thread says stands for all its threads, and the programs
 * below it are those its main thread started (where the target's code runs): a tenth of the reads,
 * for a reader that looks often.
 */
export function readProcess(pid: number, { mainThreadOnly = false }: { mainThreadOnly?: boolean } = {}): ProcessReading | null {
  const own = statFields(`/proc/${pid}/stat`);
  if (!own) return null;
  const threads = mainThreadOnly ? [own[0]!] : taskIds(pid).map((tid) => statFields(`/proc/${pid}/task/${tid}/stat`)?.[0] ?? "?");
  let programsCpuMs = ticks(own, 13) + ticks(own, 14);
  let programBusy = false;
  for (const child of descendants(pid, mainThreadOnly)) {
    const stat = statFields(`/proc/${child}/stat`);
    if (!stat) continue;
    programsCpuMs += ticks(stat, 11) + ticks(stat, 12) + ticks(stat, 13) + ticks(stat, 14);
    if (stat[0] === "R" || stat[0] === "D") programBusy = true;
  }
  return { at: performance.now(), threads, cpuMs: ticks(own, 11) + ticks(own, 12), programsCpuMs, programBusy };
}

/** What the process did between two readings of it, as its states at both and what it used meanwhile say. */
export function activityBetween(before: ProcessReading, after: ProcessReading): Activity {
  const share = (ms: number) => ms >= RUNNING_SHARE * Math.max(1, after.at - before.at);
  // Runnable at both readings, not one: a thread of the runtime's own (the garbage collector's) may be caught running once.
  if ((before.threads.includes("R") && after.threads.includes("R")) || share(after.cpuMs - before.cpuMs)) return "running";
  if (after.threads.includes("D") || after.programBusy || share(after.programsCpuMs - before.programsCpuMs)) return "waiting-for-work";
  return "blocked";
}
