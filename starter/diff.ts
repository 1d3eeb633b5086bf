// Stretch: session diffing.
//
// Run the same task twice with two different prompts, keeping the state after every step, and
// the two histories tell you where the runs parted ways: the first step whose states differ, and
// the places inside those states where they do.
import type { Task } from "@lab/task";

/** A path into a state: object keys and array indices, outermost first ([] is the whole state). */
export type Path = (string | number)[];

export interface Divergence {
  step: number;
  paths: Path[];
}

/**
 * Runs `task` from `task.initialState()` through its last step, keeping the state after every
 * step in `historyDir` (an existing, empty folder).
 *
 * The folder is yours: one file per step, one file for the whole run, one line per step. What
 * does `loadHistory` need to find there, in a later process, to give the steps back in order?
 * What if the process dies halfway through recording: you already wrote a safe way to save a
 * state in Phase 1.
 */
export function recordHistory<S>(task: Task<S>, historyDir: string): void {
  // TODO: run every step in order and keep each state it returns.
  throw new Error("not implemented yet: recordHistory (starter/diff.ts)");
}

/**
 * The states `recordHistory` kept in `historyDir`, in step order: element i is the state after
 * step i + 1.
 *
 * How will you know, reading the folder, which state came after which step, and where the
 * history ends?
 */
export function loadHistory<S = unknown>(historyDir: string): S[] {
  // TODO: read back the states recordHistory kept, in step order.
  throw new Error("not implemented yet: loadHistory (starter/diff.ts)");
}

/**
 * The first step at which two histories differ, and every path at which the two states differ
 * there; `null` when the histories are equal.
 *
 * Two states are the same when they hold the same JSON, whatever the order of their keys. When
 * they are not, where exactly do they differ? Walk both at once: when the two sides are not even
 * the same kind of value (an object and an array, 0 and null), the difference is right here;
 * when they are both objects or both arrays, a key only one of them has is a difference of its
 * own, and a key both have is a question to ask one level down. And a step that only one run
 * reached?
 */
export function firstDivergence(a: readonly unknown[], b: readonly unknown[]): Divergence | null {
  // TODO: find the first step whose states differ, then every smallest path where they differ.
  throw new Error("not implemented yet: firstDivergence (starter/diff.ts)");
}
