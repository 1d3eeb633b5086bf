// Which crash cuts of one trace leave the same disk. A process crash leaves the disk as the
// operations before the cut made it: a cut after an operation that changes nothing on disk (a
// close, an fsync, a read-only open, a mark) leaves what the cut before it left. A recovery sees
// only the disk (with a process id and a clock that do not depend on the cut), so it runs once
// per disk, and each cut is judged on that run with its own history.
import type { Cut, Trace } from "./model.js";
import { changesDisk } from "./trace.js";

/**
 * For each cut, a key that two cuts share only when they rebuild the same disk from `trace`
 * (null for a power cut, whose disk also depends on what was durable: never shared).
 */
export function diskKeys(trace: Trace, cuts: readonly Cut[]): (string | null)[] {
  // lastChange[i]: the last entry before i that changed the disk (-1: none).
  const lastChange: number[] = [];
  let last = -1;
  for (let i = 0; i <= trace.entries.length; i++) {
    lastChange.push(last);
    if (i < trace.entries.length && changesDisk(trace.entries[i]!)) last = i;
  }
  return cuts.map((cut) => {
    if (cut.power) return null;
    const at = Math.min(cut.at, trace.entries.length);
    // A torn write leaves part of that write: the only cut that leaves exactly this disk.
    return cut.bytes !== undefined ? `torn:${at}:${cut.bytes}` : `after:${lastChange[at]}`;
  });
}
