// A process's line in /proc/<pid>/stat (Linux), read the same way by the grader's side and by the
// processes that run the target's code: its fields after the name, and its processor times.
import fs from "node:fs";

/** Linux reports times in /proc in ticks of 1/100 s, whatever the kernel's own rate. */
export const MS_PER_TICK = 10;

/**
 * The fields of a /proc stat line after the name (the state first). It uses nothing outside
 * itself: the call-limit thread runs its source (runtime/target/time-limit.ts).
 */
export function statLineFields(line: string): string[] {
  // The name is in parentheses and may hold spaces and parentheses of its own: read after the last.
  return line.slice(line.lastIndexOf(")") + 2).split(" ");
}

/** The fields of a /proc stat file after the name (the state first), or null when it cannot be read. */
export function statFields(file: string): string[] | null {
  try {
    return statLineFields(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Field `i` of `statFields` (11 utime, 12 stime, 13 cutime, 14 cstime), in milliseconds. */
export function ticks(fields: string[], i: number): number {
  return (Number(fields[i]) || 0) * MS_PER_TICK;
}

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
  const fields = statFields(`/proc/${pid}/stat`);
  return fields && { state: fields[0]!, cpuMs: ticks(fields, 11) + ticks(fields, 12), endedChildrenCpuMs: ticks(fields, 13) + ticks(fields, 14) };
}
