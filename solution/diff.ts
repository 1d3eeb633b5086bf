// Stretch reference: session diffing. Keep the state after every step of a run, then compare two
// kept runs to find the first step where they part ways, and every place in that step's states
// where they differ.
//
// The history is one checkpoint per step (step-1.json, step-2.json, ...), each saved with
// atomicCheckpoint: a crash while recording leaves whole steps behind, never a torn one.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Task } from "@lab/task";
import { atomicCheckpoint, loadCheckpoint } from "./checkpoint";

/** A path into a state: object keys and array indices, outermost first ([] is the whole state). */
export type Path = (string | number)[];

export interface Divergence {
  step: number;
  paths: Path[];
}

const stepFile = (historyDir: string, step: number) => join(historyDir, `step-${step}.json`);

export function recordHistory<S>(task: Task<S>, historyDir: string): void {
  let state = task.initialState();
  for (let step = 1; step <= task.steps; step++) {
    state = task.runStep(step, state);
    atomicCheckpoint(stepFile(historyDir, step), state);
  }
}

export function loadHistory<S = unknown>(historyDir: string): S[] {
  const history: S[] = [];
  // Steps are kept from 1 with no gap. The file's existence ends the loop, not a null load:
  // a state may itself be null.
  for (let step = 1; existsSync(stepFile(historyDir, step)); step++) history.push(loadCheckpoint<S>(stepFile(historyDir, step)) as S);
  return history;
}

export function firstDivergence(a: readonly unknown[], b: readonly unknown[]): Divergence | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    // A step only one run reached differs as a whole.
    if (i >= a.length || i >= b.length) return { step: i + 1, paths: [[]] };
    const paths: Path[] = [];
    collectDifferences(a[i], b[i], [], paths);
    if (paths.length > 0) return { step: i + 1, paths };
  }
  return null;
}

type Kind = "null" | "array" | "object" | "string" | "number" | "boolean";

function kindOf(value: unknown): Kind {
  return value === null ? "null" : Array.isArray(value) ? "array" : (typeof value as Kind);
}

/** Adds to `out` the smallest paths below `at` where `x` and `y` differ. */
function collectDifferences(x: unknown, y: unknown, at: Path, out: Path[]): void {
  const kind = kindOf(x);
  // Two values of different kinds, or two different primitives, differ as a whole: nothing
  // inside one of them has a counterpart in the other.
  if (kind !== kindOf(y)) return void out.push(at);
  if (kind !== "object" && kind !== "array") return void (x !== y && out.push(at));
  // An array is compared like an object keyed by its indices; key order never matters, since
  // keys are looked up, not walked in step. Indices go into paths as numbers, keys as strings.
  const left = x as Record<string, unknown>;
  const right = y as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    const here = [...at, kind === "array" ? Number(key) : key];
    if (Object.hasOwn(left, key) && Object.hasOwn(right, key)) collectDifferences(left[key], right[key], here, out);
    else out.push(here);
  }
}
