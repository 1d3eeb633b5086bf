// The grader's stand-ins in a trace. When a check fails with a student's earlier file
// (checkpoint.ts under runner.ts, say), it is tried again with a stand-in for that file
// (grader/stand-ins/), so that a bug is charged only where it lives. A stand-in holds no answer:
// it writes its file in place, and the crash model makes each of its saves whole, which no
// real file system does. Its operations carry the api STAND_IN_API, after a mark of that label,
// and a crash lands before a save or after it, never inside.
import type { Trace, TraceEntry } from "./model.js";

/** The api of a stand-in save's operations, and the label of the mark before them. */
export const STAND_IN_API = "stand-in save";

/** True for an operation of a stand-in's save. */
export function isStandInOp(entry: TraceEntry): boolean {
  return entry.kind !== "mark" && entry.kind !== "effect" && entry.api === STAND_IN_API;
}

/** Each stand-in save from entry `from` on: its first operation and one past its last. */
export function standInSpans(trace: Trace, from = 0): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const entries = trace.entries;
  for (let i = from; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.kind !== "mark" || e.label !== STAND_IN_API) continue;
    let end = i + 1;
    while (end < entries.length && isStandInOp(entries[end]!)) end++;
    spans.push({ start: i + 1, end });
    i = end - 1;
  }
  return spans;
}
