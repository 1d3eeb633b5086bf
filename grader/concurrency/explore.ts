// Every order of the writers' operations that matters, each run for real. Two operations of
// different writers commute when neither changes a name the other touches (writes to two
// private temp files, two fsyncs): swapping them cannot change any process's result nor what
// the reader sees, so only one of their orders is run. This is dynamic partial-order reduction
// over re-executed runs: after each run, every pair of conflicting operations of different
// writers adds a branch where the later writer goes first, and the shallowest open branch runs next.
// A run is what the caller makes of a list of choices (world.ts runs real writers); the engine
// looks only at what each of its steps touched (footprint.ts).
import type { Expected } from "../grading/calls.js";
import type { CallResult } from "../sandbox/messages/scenario.js";
import type { RunWrong } from "../contract/finding.js";
import { conflict, listingOf, type Choice, type Step } from "./footprint.js";

/** One load of the reader, kept for the failure's picture: after how many steps, what it gave, against what. */
export interface LoadSeen {
  afterStep: number;
  /** The load once every writer had returned. */
  final: boolean;
  /** What loadCheckpoint returned or threw; absent when the reader gave no answer. */
  result?: CallResult;
  /** The outcomes it was judged against (the very list its verdict used). */
  allowed: Expected[];
  /** The names it changed, when it changed any (as in readerChanged). */
  changed?: { name: string; removed: boolean }[];
}

/** One run: the steps in the order they ran, the writers waiting before each, what went wrong. */
export interface Execution {
  steps: Step[];
  choices: Choice[];
  /** What went wrong, after how many steps; null for a run that went right. */
  problem: RunWrong | null;
  /** How many loads the reader made (the states checked). */
  loads: number;
  /** The names a load of the reader changed (a load that removes leftovers, say), after how many steps. */
  readerChanged?: { afterStep: number; names: { name: string; removed: boolean }[] }[];
  /** Every load of the reader, in order (the picture draws what each returned). */
  loadsSeen?: LoadSeen[];
}

/** Picks the writer to let through next, among those waiting (`waiting` is never empty). */
export type Chooser = (depth: number, waiting: number[], steps: Step[]) => number;

export interface Exploration {
  /** The first run that went wrong, or null. */
  failed: Execution | null;
  /** Runs made, states checked (the reader's loads), and whether every order that matters ran. */
  runs: number;
  loads: number;
  complete: boolean;
}

/**
 * Without a choice to follow: the writer that made the last step, while it can go on, else the
 * first one waiting. A branch then runs its writer ahead as far as it goes, so the conflicting
 * call it was made for comes next, not hundreds of runs later. (A writer retrying a failed call
 * is never among those waiting while another can go: see world.ts.)
 */
export const stickyChoice: Chooser = (_depth, waiting, steps) => {
  // While writers keep failing (spinning on a lock), none waits more than STARVING steps: two
  // spinning writers must not keep the lock's holder waiting for ever.
  if (steps.length > STARVING && steps.at(-1)!.failed) {
    const seen = new Set<number>();
    for (let i = steps.length - 1; i >= steps.length - STARVING; i--) seen.add(steps[i]!.writer);
    const starved = waiting.find((w) => !seen.has(w));
    if (starved !== undefined) return starved;
  }
  const last = steps.at(-1)?.writer;
  return last !== undefined && waiting.includes(last) ? last : waiting[0]!;
};

/** Steps a waiting writer may be passed over before it goes next whatever the order. */
const STARVING = 256;

/** How much one exploration may run: whole runs, and file-system calls over all its runs. */
export interface Budget {
  runs: number;
  steps: number;
}

/** An order still to run: the choices up to a node, then `writer` there. */
interface Branch {
  depth: number;
  prefix: number[];
}

/**
 * Runs `run` over every order that matters, within `budget`; stops at the first that goes wrong.
 * Open branches run shallowest first: when the budget ends the exploration early, the orders it
 * covered differ early (who goes first), where a shared name usually shows.
 */
export async function exploreOrders(run: (choose: Chooser) => Promise<Execution>, budget: Budget): Promise<Exploration> {
  let steps = 0;
  let prefix: number[] = [];
  /** The writers that already went first from each node, by the node's key (see nodeKeys). */
  const done = new Map<string, Set<number>>();
  const todo: Branch[] = [];
  const result: Exploration = { failed: null, runs: 0, loads: 0, complete: false };
  for (;;) {
    const forced = prefix;
    const exec = await run((depth, waiting, steps) => (depth < forced.length ? forced[depth]! : stickyChoice(depth, waiting, steps)));
    result.runs++;
    result.loads += exec.loads;
    steps += exec.steps.length;
    if (exec.problem) return { ...result, failed: exec };
    const keys = nodeKeys(exec.steps);
    const wentFirst = (d: number) => done.get(keys[d]!) ?? done.set(keys[d]!, new Set()).get(keys[d]!)!;
    exec.steps.forEach((step, d) => wentFirst(d).add(step.writer));
    for (const [i, w] of conflictingBranches(exec, forced.length)) {
      if (wentFirst(i).has(w)) continue;
      wentFirst(i).add(w);
      todo.push({ depth: i, prefix: [...exec.steps.slice(0, i).map((s) => s.writer), w] });
    }
    if (todo.length === 0) return { ...result, complete: true };
    if (result.runs >= budget.runs || steps >= budget.steps) return result;
    let next = 0;
    for (let k = 1; k < todo.length; k++) if (todo[k]!.depth < todo[next]!.depth) next = k;
    prefix = todo.splice(next, 1)[0]!.prefix;
  }
}

/** A key per node of a run (the state before step d): a hash of the choices that led to it. */
function nodeKeys(steps: Step[]): string[] {
  const keys = ["0"];
  let a = 0x811c9dc5;
  let b = 0x1b873593;
  steps.forEach((step, d) => {
    a = Math.imul(a ^ (step.writer + 1), 0x01000193) >>> 0;
    b = Math.imul(b + step.writer + 7, 0x5bd1e995) >>> 0;
    keys.push(`${d + 1}.${a}.${b}`);
  });
  return keys;
}

/**
 * From each choice point at or after `from`: [i, w] when writer w, waiting there, conflicts with
 * an earlier step i of another writer while w was already waiting at i (so w could have gone first).
 */
function conflictingBranches(exec: Execution, from: number): [number, number][] {
  // Steps by the names they touch; a change to "dir/x" is also filed under the listing "dir/*".
  const byName = new Map<string, number[]>();
  const file = (name: string, i: number) => (byName.get(name) ?? byName.set(name, []).get(name)!).push(i);
  exec.steps.forEach((step, i) => {
    for (const name of [...step.footprint.reads, ...step.footprint.writes]) file(name, i);
    for (const name of step.footprint.writes) file(listingOf(name), i);
  });
  const out: [number, number][] = [];
  for (let d = Math.max(0, from); d < exec.choices.length; d++) {
    for (const [w, footprint] of exec.choices[d]!.pending) {
      const names = [...footprint.reads, ...footprint.writes, ...footprint.writes.map(listingOf)];
      for (const name of names) {
        for (const i of byName.get(name) ?? []) {
          if (i >= d) break;
          const step = exec.steps[i]!;
          if (step.writer !== w && exec.choices[i]!.pending.has(w) && conflict(step.footprint, footprint)) out.push([i, w]);
        }
      }
    }
  }
  return out;
}
