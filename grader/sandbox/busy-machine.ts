// Whether the machine's processors were all busy over a stretch of time, and what share of a
// processor a runnable thread got then: a call or a check that meets its time limit then was kept
// from running by the machine (other grades, other jobs, the grade's own other checks), not slowed
// by the target alone, and gets more time. Both sides of the sandbox read it: the child for each
// call, the grader's process for each check (grading/fair-clock.ts). Reads /proc/stat (Linux);
// elsewhere it never says busy, and every share is whole. A process's own times, for the bench,
// are read here too (/proc/<pid>/stat); the watchdog reads what a process is doing through
// supervisor/process-state.ts.
import fs from "node:fs";

/** The processors' time so far, in ticks: all of it and the part spent idle (waiting for I/O included). */
export interface CpuTimes {
  total: number;
  idle: number;
}

/** The share of processor time spent busy, from which a machine counts as saturated. */
const SATURATED = 0.9;

/** The processors' time so far and the threads runnable now. */
export interface MachineReading extends CpuTimes {
  /** Threads running or waiting for a processor, the reader's own included. */
  runnable: number;
}

/** The processors' time and the runnable threads now, or null where /proc/stat is not there. */
export function readMachine(): MachineReading | null {
  try {
    const text = fs.readFileSync("/proc/stat", "utf8");
    const ticks = text.split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const runnable = Number(/^procs_running (\d+)$/m.exec(text)?.[1] ?? 1);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already).
    return { total: ticks.slice(0, 8).reduce((a, b) => a + b, 0), idle: ticks[3]! + (ticks[4] ?? 0), runnable };
  } catch {
    return null;
  }
}

/** The share of a processor a runnable thread got between two readings: 1 while one was to spare (busy under 90%), else the processors over the other runnable threads. */
export function shareBetween(before: MachineReading, after: MachineReading, cores: number): number {
  const busy = busyBetween(before, after);
  if (busy === null || busy < SATURATED) return 1;
  // The reader counts itself among the runnable threads; it is not what the work waits behind.
  const others = Math.max(1, (before.runnable + after.runnable) / 2 - 1);
  return Math.min(1, cores / others);
}

/** True when, since `since`, every processor was busy at least 90% of the time. */
export function saturatedSince(since: CpuTimes | null): boolean {
  const now = readMachine();
  const busy = since && now && busyBetween(since, now);
  return typeof busy === "number" && busy >= SATURATED;
}

/** The share of the processors' time spent busy between two readings, or null when no time passed between them. */
function busyBetween(before: CpuTimes, after: CpuTimes): number | null {
  const ticks = after.total - before.total;
  return ticks <= 0 ? null : 1 - (after.idle - before.idle) / ticks;
}

/** Linux reports a process's times in /proc in ticks of 1/100 s, whatever the kernel's own rate. */
const MS_PER_TICK = 10;

/** What `/proc/<pid>/stat` says of a process's scheduling and processor time. */
export interface ProcessStat {
  /** Its scheduling state: "R" runnable, "S" sleeping, ... */
  state: string;
  /** Processor time it has used, user and system, in milliseconds. */
  cpuMs: number;
  /** Processor time of its children that have ended and been waited for, user and system, in milliseconds. */
  endedChildrenCpuMs: number;
}

/** A process's state and processor times from `/proc/<pid>/stat`, or null where it cannot be read. */
export function processStat(pid: number | "self"): ProcessStat | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The name is in parentheses and may hold spaces and parentheses of its own: read after the last.
  // The state is then the first field (the line's 3rd); utime, stime, cutime and cstime the line's 14th to 17th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ms = (a: number, b: number) => (Number(fields[a]) + Number(fields[b])) * MS_PER_TICK;
  return { state: fields[0]!, cpuMs: ms(11, 12), endedChildrenCpuMs: ms(13, 14) };
}
