// The one clock the grader times things with: durations it reports, spans it compares across its
// processes, and deadlines it waits for. `Date.now()` follows the system's clock, which a time sync
// or a virtual machine resumed from a pause may step back or forward in the middle of a grade: a
// check then "took" a few seconds less, or less than nothing. This clock starts at the system's
// time when the process started and advances only with the monotonic clock after that.

/** Whole milliseconds since the epoch, as of this process's start plus the monotonic time since. */
export function steadyNow(): number {
  return Math.floor(performance.timeOrigin + performance.now());
}
