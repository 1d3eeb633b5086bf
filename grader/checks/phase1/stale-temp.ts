// phase1.stale-temp: whatever a crash inside atomicCheckpoint left behind (a temp file, a torn
// one), the next process can write the same state again, then a new one, and load each back.
import fc from "fast-check";
import { checkLoad, checkWrite, load, restart, write } from "../../grading/calls.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState, showState } from "../../grading/states.js";
import { quotedNamesNormalised } from "../../crash/names.js";
import { MAX_CUTS } from "../../crash/cuts.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import { NONE, crashStory, crashedPid, recordWindow, type OldState } from "./crash-window.js";

export const staleTemp: CheckDefinition = {
  id: "phase1.stale-temp",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(
      ctx,
      fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState(), after: jsonState() }),
      async ({ old, next, after }) => {
        // Each crash state's next process writes twice and loads four times: a quarter of
        // phase1.crash-safety's crash states per write keeps a save of many small pieces in time.
        const w = await recordWindow(box, old, next, [], { maxCuts: MAX_CUTS / 4 });
        if (typeof w === "string") return `Could not record a write to crash: ${w}`;
        // The recovering process loads first (its result is judged by phase1.crash-safety), saves
        // another state, then the state it was saving when it crashed (a redone step saves the same state).
        const steps = [load(), write(after), load(), write(next), load(), restart, load()];
        // The next process gets the crashed one's process id, as a restarted container's PID 1 does.
        const outcomes = await box.runMany("checkpoint", w.traceId, w.cuts, steps, { pid: crashedPid(w.trace) });
        for (const [i, outcome] of outcomes.entries()) {
          const results = outcome.results.map(sameNames);
          const first = [{ label: "the state just written", state: after }];
          const again = [{ label: "the state just written", state: next }];
          // What the next process did, up to the call that went wrong: only what happened is told as done.
          const wrote = `wrote ${showState(after, 60)}`;
          const rewrote = `wrote again the state it was writing when it crashed, ${showState(next, 60)}`;
          const problem =
            tell(checkWrite(results[1]!, after), "then tried to write a new state") ??
            tell(checkLoad(results[2]!, first), `${wrote}, then loaded it back`) ??
            tell(checkWrite(results[3]!, next), `${wrote} and loaded it back, then tried to write again the state it was writing when it crashed`) ??
            tell(checkLoad(results[4]!, again), `${wrote} and loaded it back, ${rewrote}, then loaded it back`) ??
            tell(checkLoad(results[5]!, again), `${wrote}, ${rewrote}, and loaded each back; after a further restart`);
          if (problem) {
            const story = await crashStory(box, w, w.cuts[i]!, { draw: (p) => ctx.draw(p) });
            return `${story}\nThe next process (with the same process id, as a restarted container gets) loaded, ${problem}.`;
          }
        }
        return null;
      },
      { numRuns: 15, examples: [{ old: { step: 1 }, next: { step: 2 }, after: { step: 3 } }, { old: NONE, next: "a", after: "b" }] },
    );
    if (!found) return ctx.passed();
    return ctx.failed(found.story, found.path);
  },
};

/**
 * `r` with the file names its error quotes spelt as the crash story spells them
 * ("checkpoint.json.*.tmp"): the next process has the crashed one's id, which the story hides, so
 * that one story names one file one way.
 */
function sameNames(r: CallResult): CallResult {
  return r.status === "threw" ? { ...r, error: { ...r.error, message: quotedNamesNormalised(r.error.message) } } : r;
}

/** "<what it did>: <problem>", or null when there is no problem. */
function tell(problem: string | null, before: string): string | null {
  return problem === null ? null : `${before}: ${problem}`;
}
