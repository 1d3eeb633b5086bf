// A crash state reached through earlier crashes, as one trace: what each crashed process did up
// to its crash (a torn write cut to the bytes that reached the file), then the last process's own
// entries. Its crash states rebuild from several traces in turn (the sandbox replays each up to
// its cut); the model and the pictures read one trace, so they read this one.
import type { Cut, FsOp, Trace, TraceEntry } from "./model.js";

/** A process that crashed, and where. */
export interface Crashed {
  trace: Trace;
  cut: Cut;
}

/**
 * The entries `before` left, then `last`'s, and where `last`'s first entry is in it (`offset`).
 * Each process's descriptors are renumbered past the ones before it: a new process opens its own.
 */
export function chainedTrace(before: readonly Crashed[], last: Trace): { trace: Trace; offset: number } {
  const entries: TraceEntry[] = [];
  let fdBase = 0;
  const append = (source: TraceEntry[]) => {
    let top = 0;
    for (const entry of source) {
      if (hasFd(entry)) {
        top = Math.max(top, entry.fd);
        entries.push({ ...entry, fd: entry.fd + fdBase } as TraceEntry);
      } else entries.push(entry);
    }
    fdBase += top;
  };
  for (const { trace, cut } of before) {
    const done = trace.entries.slice(0, cut.at);
    const torn = cut.bytes !== undefined ? trace.entries[cut.at] : undefined;
    append(torn?.kind === "write" ? [...done, { ...torn, bytes: torn.bytes.subarray(0, cut.bytes) }] : done);
  }
  const offset = entries.length;
  append(last.entries);
  return { trace: { entries, truncated: last.truncated || before.some((b) => b.trace.truncated) }, offset };
}

function hasFd(entry: TraceEntry): entry is Extract<FsOp, { fd: number }> {
  return "fd" in entry && typeof entry.fd === "number";
}
