// Whether the machine's processors were all busy over a stretch of time: a call or a check that
// meets its time limit then was kept from running by the machine (other grades, other jobs, the
// grade's own other checks), not slowed by the target alone, and gets more time. Both sides of the
// sandbox read it: the child for each call, the grader's process for each check. Reads /proc/stat
// (Linux); elsewhere it never says busy.
import fs from "node:fs";

/** The processors' time so far, in ticks: all of it and the part spent idle (waiting for I/O included). */
export interface CpuTimes {
  total: number;
  idle: number;
}

/** The share of processor time spent busy, from which a machine counts as saturated. */
const SATURATED = 0.9;

/** The machine's processor times now, or null where /proc/stat is not there. */
export function cpuTimes(): CpuTimes | null {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already).
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    return { total, idle: ticks[3]! + (ticks[4] ?? 0) };
  } catch {
    return null;
  }
}

/** True when, since `since`, every processor was busy at least 90% of the time. */
export function saturatedSince(since: CpuTimes | null): boolean {
  const now = cpuTimes();
  if (!since || !now || now.total <= since.total) return false;
  return 1 - (now.idle - since.idle) / (now.total - since.total) >= SATURATED;
}
