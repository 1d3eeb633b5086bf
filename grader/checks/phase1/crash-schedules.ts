// phase1.crash-schedules: crashes in a row. A process's atomicCheckpoint is killed; the next
// process (which may load first, and may clean up what the crash left) is killed too, in its load
// or in its own atomicCheckpoint; up to three crashes. The process after the last crash must load
// a state that could be there (crash-chain.ts says which), then write and load a new one. With two
// crashes, every pair of crash points is tried (the points inside writes thinned out); with three,
// fast-check picks them.
import fc from "fast-check";
import { crashCuts } from "../../crash/cuts.js";
import type { Cut } from "../../crash/model.js";
import type { Expected } from "../../grading/calls.js";
import type { CheckContext } from "../../grading/context.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { fraction, smallJsonState, type JsonState } from "../../grading/states.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { allowedStates, chainFailure, chainOf, finalSteps, firstProcess, judgeLast, recordRestart, settingLine, tellChain, type Link, type Recorded, type Restart } from "./crash-chain.js";
import { NONE, crashedPid, recordWindow, type OldState } from "./crash-window.js";

/** Crash points kept per call when every pair is tried: every change to the disk, and a few points inside its writes. */
const PAIR_CUTS = 12;

interface Schedule {
  old: OldState;
  /** The state the first process was writing when it was killed, and where it was killed (with three crashes). */
  first: { state: JsonState; at: number };
  /** One restart with two crashes (every pair of crash points tried), two with three (each point fast-check's). */
  restarts: (Restart & { at: number })[];
  /** The state the last process writes. */
  last: JsonState;
}

const schedule: fc.Arbitrary<Schedule> = fc.record({
  old: fc.oneof(fc.constant<OldState>(NONE), smallJsonState()),
  first: fc.record({ state: smallJsonState(), at: fraction() }),
  restarts: fc.array(fc.record({ loadsFirst: fc.boolean(), state: smallJsonState(), at: fraction() }), { minLength: 1, maxLength: 2 }),
  last: smallJsonState(),
});

export const crashSchedules: CheckDefinition = {
  id: "phase1.crash-schedules",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(ctx, schedule, (s) => tryChain(ctx, box, s), {
      numRuns: 12,
      examples: [
        { old: { step: 1 }, first: { state: { step: 2 }, at: 0 }, restarts: [{ loadsFirst: true, state: { step: 3 }, at: 0 }], last: { step: 4 } },
        { old: { step: 1 }, first: { state: { step: 2 }, at: 0 }, restarts: [{ loadsFirst: false, state: { step: 3 }, at: 0 }], last: { step: 4 } },
        { old: NONE, first: { state: "a", at: 0.5 }, restarts: [{ loadsFirst: true, state: "b", at: 0.5 }, { loadsFirst: true, state: "c", at: 0.5 }], last: "d" },
      ],
    });
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};

/** The story of the first crash schedule of `s` that fails, or null. */
async function tryChain(ctx: CheckContext, box: Sandbox, s: Schedule): Promise<string | null> {
  const w = await recordWindow(box, s.old, s.first.state, [], { maxCuts: PAIR_CUTS });
  if (typeof w === "string") return `Could not record a write to crash: ${w}`;
  const pid = crashedPid(w.trace);
  const first = firstProcess(w, s.first.state);
  const setting = settingLine(s.old === NONE ? undefined : s.old);
  // The old state, or what this code's load gives where nothing was written.
  const start: Expected[] = w.allowed.slice(0, 1);

  // Two crashes: every crash point of the first write, and for each every crash point of the next process.
  if (s.restarts.length === 1) {
    for (const cut1 of w.cuts) {
      const link1: Link = { process: first, cut: cut1, allowed: allowedStates(first, cut1, start) as Expected[] };
      const next = await recordRestart(box, [link1], s.restarts[0]!, 3, pid);
      if (typeof next === "string") return tellChain(setting, [link1], next);
      const cuts2 = processCuts(next, PAIR_CUTS);
      const outcomes = await box.runMany("checkpoint", next.traceId, cuts2, finalSteps(s.last), { base: chainOf([link1]), pid });
      for (const [i, o] of outcomes.entries()) {
        const allowed2 = allowedStates(next, cuts2[i]!, link1.allowed);
        if (typeof allowed2 === "string") return tellChain(setting, [link1], allowed2);
        const problem = judgeLast(o.results, allowed2, s.last, 4);
        if (problem) return await chainFailure(ctx, box, setting, [link1, { process: next, cut: cuts2[i]!, allowed: allowed2 }], problem);
      }
    }
    return null;
  }

  // Three crashes: each where fast-check puts it.
  const cut1 = w.cuts[Math.floor(s.first.at * w.cuts.length)]!;
  const links: Link[] = [{ process: first, cut: cut1, allowed: allowedStates(first, cut1, start) as Expected[] }];
  for (const [i, restart] of s.restarts.entries()) {
    const next = await recordRestart(box, links, restart, i + 3, pid);
    if (typeof next === "string") return tellChain(setting, links, next);
    const cuts = processCuts(next);
    const cut = cuts[Math.floor(restart.at * cuts.length)]!;
    const allowed = allowedStates(next, cut, links.at(-1)!.allowed);
    if (typeof allowed === "string") return tellChain(setting, links, allowed);
    links.push({ process: next, cut, allowed });
  }
  const last = await box.run("checkpoint", { from: chainOf(links), steps: finalSteps(s.last), pid });
  const problem = judgeLast(last.results, links.at(-1)!.allowed, s.last, links.length + 2);
  return problem && (await chainFailure(ctx, box, setting, links, problem));
}

/** The crash points of a process's calls, at most `max` when given (every change to the disk is kept). */
function processCuts(r: Recorded, max?: number): Cut[] {
  return crashCuts(r.trace, r.start, r.trace.entries.length, [], max);
}
