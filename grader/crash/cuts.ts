// The crash states of a window of a trace: after every operation that changes the disk, and in
// the middle of every write. Small writes are cut at every byte; large ones at the bytes that
// matter (the first, the last, page edges, the middle) and at fractions fast-check chooses.
// A command's operations are cut like the target's own (they have the real program's
// atomicity), except git's: before it, with its lock and new objects, and after it. A stand-in's
// save (crash/stand-in.ts) is cut before it and after it.
import { wholeCallsAllow, wholeCallStops } from "./commands.js";
import type { Cut, Trace } from "./model.js";
import { changesDisk } from "./trace.js";

/** Byte counts at which to tear a write of `length` bytes; every one when the write is short. */
export function tearPoints(length: number, fractions: readonly number[] = [], exhaustiveUpTo = 64): number[] {
  if (length <= 1) return [];
  if (length <= exhaustiveUpTo) return Array.from({ length: length - 1 }, (_, i) => i + 1);
  const points = new Set([1, 2, Math.floor(length / 2), length - 2, length - 1]);
  for (const page of [512, 4096, 65536]) if (page < length) points.add(page);
  for (const f of fractions) points.add(Math.min(length - 1, Math.max(1, Math.floor(f * length))));
  return [...points].sort((a, b) => a - b);
}

/** At most this many crash states per window; past it, the states inside writes are sampled. */
export const MAX_CUTS = 800;

/**
 * Every distinct crash state between entries `from` and `to` (a process crash keeps completed
 * operations). A target that writes in thousands of small pieces has more states than are worth
 * rebuilding: then every state after a change that is not a write is kept, with the torn and
 * finished states of the first and last writes, and an even sample of the others.
 */
export function crashCuts(trace: Trace, from: number, to: number, fractions: readonly number[] = [], max = MAX_CUTS): Cut[] {
  const structural: Cut[] = [{ at: from }];
  const inWrites: Cut[] = [];
  const allows = wholeCallsAllow(trace, from);
  for (let i = from; i < to; i++) {
    const entry = trace.entries[i]!;
    if (entry.kind === "write") {
      if (allows(i, 1)) for (const bytes of tearPoints(entry.bytes.byteLength, fractions)) inWrites.push({ at: i, bytes });
      if (allows(i + 1)) inWrites.push({ at: i + 1 });
    } else if (changesDisk(entry) && allows(i + 1)) structural.push({ at: i + 1 });
  }
  // Inside git and right after it, or right after a stand-in's save: the same state as after its last change, which is not cut.
  for (const at of wholeCallStops(trace, from, to)) if (!structural.some((c) => c.at === at)) structural.push({ at });
  const room = Math.max(0, max - structural.length);
  const kept = inWrites.length <= room ? inWrites : sampleEvenly(inWrites, room);
  return [...structural, ...kept].sort(byTime);
}

/** Orders cuts in time: by entry, and before an entry (no `bytes`) ahead of the middle of it. */
export function byTime(a: Cut, b: Cut): number {
  return a.at - b.at || (a.bytes ?? -1) - (b.bytes ?? -1);
}

/** `n` items spread evenly over `items`, the first and the last included. */
export function sampleEvenly<T>(items: T[], n: number): T[] {
  if (n <= 1) return items.slice(0, n);
  return Array.from({ length: n }, (_, k) => items[Math.round((k * (items.length - 1)) / (n - 1))]!);
}

/** The index of the first entry after the mark `label`, searching from `start`. */
export function findMark(trace: Trace, label: string, start = 0): number {
  for (let i = start; i < trace.entries.length; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "mark" && e.label === label) return i + 1;
  }
  return -1;
}
