// Every order of the writers' operations that matters, each run for real. Two operations of
// different writers commute when neither changes a name the other touches (writes to two
// private temp files, two fsyncs): swapping them cannot change any process's result nor what
// the reader sees, so only one of their orders is run. This is dynamic partial-order reduction
// over re-executed runs: after each run, every pair of conflicting operations of different
// writers adds a branch where the later writer goes first, and the deepest open branch runs next.
import type { Footprint } from "../sandbox/actor-protocol.js";
import type { Chooser, Execution, Step } from "./world.js";

export interface Exploration {
  /** The first run that went wrong, or null. */
  failed: Execution | null;
  /** Runs made, states checked (the reader's loads), and whether every order that matters ran. */
  runs: number;
  loads: number;
  complete: boolean;
}

/** True when the order of two operations can matter: one changes a name the other touches. */
export function conflict(a: Footprint, b: Footprint): boolean {
  // "dir/*" is a listing of dir: every name in dir is part of it.
  const touches = (f: Footprint, name: string) => f.reads.includes(name) || f.writes.includes(name) || f.reads.includes(`${name.slice(0, name.lastIndexOf("/"))}/*`);
  return a.writes.some((n) => touches(b, n)) || b.writes.some((n) => touches(a, n));
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

/** Runs `run` over every order that matters, within `budget`; stops at the first that goes wrong. */
export async function exploreOrders(run: (choose: Chooser) => Promise<Execution>, budget: Budget): Promise<Exploration> {
  let steps = 0;
  let prefix: number[] = [];
  const branches: { todo: Set<number>; done: Set<number> }[] = [];
  const result: Exploration = { failed: null, runs: 0, loads: 0, complete: false };
  for (;;) {
    const forced = prefix;
    const exec = await run((depth, waiting, steps) => (depth < forced.length ? forced[depth]! : stickyChoice(depth, waiting, steps)));
    result.runs++;
    result.loads += exec.loads;
    steps += exec.steps.length;
    if (exec.problem) return { ...result, failed: exec };
    for (let d = branches.length; d < exec.steps.length; d++) branches.push({ todo: new Set([exec.steps[d]!.writer]), done: new Set([exec.steps[d]!.writer]) });
    addBranches(exec, forced.length, branches);
    const open = deepestOpen(branches);
    if (open < 0) return { ...result, complete: true };
    if (result.runs >= budget.runs || steps >= budget.steps) return result;
    const next = Math.min(...[...branches[open]!.todo].filter((w) => !branches[open]!.done.has(w)));
    branches[open]!.done.add(next);
    branches.length = open + 1;
    prefix = [...exec.steps.slice(0, open).map((s) => s.writer), next];
  }
}

/** For each new choice point: a writer whose waiting operation conflicts with an earlier step of another writer may go before that step. */
function addBranches(exec: Execution, from: number, branches: { todo: Set<number> }[]): void {
  for (let d = Math.max(0, from); d < exec.choices.length; d++) {
    for (const [w, footprint] of exec.choices[d]!.pending) {
      for (let i = 0; i < d; i++) {
        const step: Step = exec.steps[i]!;
        if (step.writer !== w && conflict(step.footprint, footprint) && exec.choices[i]!.pending.has(w)) branches[i]!.todo.add(w);
      }
    }
  }
}

function deepestOpen(branches: { todo: Set<number>; done: Set<number> }[]): number {
  for (let d = branches.length - 1; d >= 0; d--) for (const w of branches[d]!.todo) if (!branches[d]!.done.has(w)) return d;
  return -1;
}
