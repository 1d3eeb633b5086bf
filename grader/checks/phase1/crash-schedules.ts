// phase1.crash-schedules: crashes in a row. A process's atomicCheckpoint is killed; the next
// process (which may load first, and may clean up what the crash left) is killed too, in its load
// or in its own atomicCheckpoint; up to three crashes. The process after the last crash must load
// a state that could be there (crash-chain.ts says which), then write and load a new one. Every
// combination of crash points is tried: every change to the disk of each process, and a few points
// inside its writes (fewer per process with three crashes than with two). fast-check picks the
// states, whether each restarted process loads first, and how many crashes.
import fc from "fast-check";
import { crashCuts } from "../../crash/cuts.js";
import type { Cut } from "../../crash/model.js";
import type { Expected } from "../../grading/calls.js";
import type { Failure, Finding } from "../../contract/finding.js";
import type { CheckContext } from "../../grading/context.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { smallJsonState, type JsonState } from "../../grading/states.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { allowedStates, chainFailure, chainOf, finalSteps, firstProcess, judgeLast, recordRestart, oldShown, stopped, tellChain, type Link, type Recorded, type Restart } from "./crash-chain.js";
import { NONE, crashedPid, recordWindow, type OldState } from "./crash-window.js";

/** Crash points kept per process, by how many crashes in a row: every change to the disk, and points inside its writes up to this many in all. */
const CUTS_PER_PROCESS: Record<number, number> = { 2: 12, 3: 5 };

interface Schedule {
  old: OldState;
  /** The state the first process was writing when it was killed. */
  first: JsonState;
  /** One restart for two crashes, two for three. */
  restarts: Restart[];
  /** The state the last process writes. */
  last: JsonState;
}

const schedule: fc.Arbitrary<Schedule> = fc.record({
  old: fc.oneof(fc.constant<OldState>(NONE), smallJsonState()),
  first: smallJsonState(),
  restarts: fc.array(fc.record({ loadsFirst: fc.boolean(), state: smallJsonState() }), { minLength: 1, maxLength: 2 }),
  last: smallJsonState(),
});

export const crashSchedules: CheckDefinition = {
  id: "phase1.crash-schedules",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(ctx, schedule, (s) => tryChain(ctx, box, s), {
      numRuns: 8,
      examples: [
        { old: { step: 1 }, first: { step: 2 }, restarts: [{ loadsFirst: true, state: { step: 3 } }], last: { step: 4 } },
        { old: { step: 1 }, first: { step: 2 }, restarts: [{ loadsFirst: false, state: { step: 3 } }], last: { step: 4 } },
        { old: {}, first: { step: 2 }, restarts: [{ loadsFirst: false, state: { step: 3 } }, { loadsFirst: true, state: { step: 4 } }], last: { step: 5 } },
        { old: NONE, first: "a", restarts: [{ loadsFirst: true, state: "b" }, { loadsFirst: false, state: "c" }], last: "d" },
      ],
    });
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};

/** The first combination of crash points of `s` that fails, or null. */
async function tryChain(ctx: CheckContext, box: Sandbox, s: Schedule): Promise<Failure | null> {
  const perProcess = CUTS_PER_PROCESS[s.restarts.length + 1]!;
  const w = await recordWindow(box, s.old, s.first, [], { maxCuts: perProcess });
  if (typeof w === "string") return `Could not record a write to crash: ${w}`;
  const pid = crashedPid(w.trace);
  const old = oldShown(s.old === NONE ? undefined : s.old);
  // The old state, or what this code's load gives where nothing was written.
  const start: Expected[] = w.allowed.slice(0, 1);

  /** Tries every crash point of `process` after the crashes `links`, then of each process after it; the first that fails, or null. */
  const explore = async (links: Link[], process: Recorded, cuts: Cut[]): Promise<Finding | null> => {
    const before = links.at(-1)?.allowed ?? start;
    const restart = s.restarts[links.length];
    if (!restart) {
      // The last crash: the last process recovers from each of its points, in one batch.
      const outcomes = await box.runMany("checkpoint", process.traceId, cuts, finalSteps(s.last), { base: chainOf(links), pid });
      for (const [i, o] of outcomes.entries()) {
        const allowed = allowedStates(process, cuts[i]!, before);
        if (stopped(allowed)) return tellChain(old, links, allowed);
        const problem = judgeLast(o.results, allowed, s.last, process.number + 1);
        if (problem) return await chainFailure(ctx, box, old, [...links, { process, cut: cuts[i]!, allowed }], problem);
      }
      return null;
    }
    for (const cut of cuts) {
      const allowed = allowedStates(process, cut, before);
      if (stopped(allowed)) return tellChain(old, links, allowed);
      const chain = [...links, { process, cut, allowed }];
      const next = await recordRestart(box, chain, restart, process.number + 1, pid);
      if (stopped(next)) return tellChain(old, chain, next);
      const found = await explore(chain, next, processCuts(next, perProcess));
      if (found) return found;
    }
    return null;
  };
  return explore([], firstProcess(w, s.first), w.cuts);
}

/** The crash points of a process's calls: every change to the disk, and inside its writes up to `max` points in all. */
function processCuts(r: Recorded, max: number): Cut[] {
  return crashCuts(r.trace, r.start, r.trace.entries.length, [], max);
}
