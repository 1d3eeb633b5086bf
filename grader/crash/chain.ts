// A crash state reached through earlier crashes, as one trace: what each crashed process did up
// to its crash (a torn write cut to the bytes that reached the file), then the last process's own
// entries. Its crash states rebuild from several traces in turn (the sandbox replays each up to
// its cut); the model and the pictures read one trace, so they read this one. A descriptor id a
// crashed process left open may be opened again by the next process: every use of a descriptor
// comes after its own open, so the two never mix.
import type { Cut, Trace, TraceEntry } from "./model.js";

/** A process that crashed, and where. */
export interface Crashed {
  trace: Trace;
  cut: Cut;
}

/** The entries `before` left, then `last`'s, and where `last`'s first entry is in it (`offset`). */
export function chainedTrace(before: readonly Crashed[], last: Trace): { trace: Trace; offset: number } {
  const entries: TraceEntry[] = [];
  for (const { trace, cut } of before) {
    entries.push(...trace.entries.slice(0, cut.at));
    const torn = cut.bytes !== undefined ? trace.entries[cut.at] : undefined;
    if (torn?.kind === "write") entries.push({ ...torn, bytes: torn.bytes.subarray(0, cut.bytes) });
  }
  const offset = entries.length;
  entries.push(...last.entries);
  return { trace: { entries, truncated: last.truncated || before.some((b) => b.trace.truncated) }, offset };
}
