// phase1.stale-temp: whatever a crash inside atomicCheckpoint left behind (a temp file, a torn
// one), the next process can write the same state again, then a new one, and load each back.
import fc from "fast-check";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState, showState } from "../../grading/states.js";
import { checkLoad, checkWrite, load, restart, write } from "./calls.js";
import { NONE, crashStory, recordWindow, type OldState } from "./crash-window.js";

export const staleTemp: CheckDefinition = {
  id: "phase1.stale-temp",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(
      ctx,
      fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState(), after: jsonState() }),
      async ({ old, next, after }) => {
        const w = await recordWindow(box, old, next);
        if (typeof w === "string") return `Could not record a write to crash: ${w}`;
        // The recovering process loads first (its result is judged by phase1.crash-safety), then
        // saves the state it was saving when it crashed (a redone step saves the same state), then another.
        const steps = [load(), write(next), load(), write(after), load(), restart, load()];
        const outcomes = await box.runMany("checkpoint", w.traceId, w.cuts, steps);
        for (const [i, { results }] of outcomes.entries()) {
          const again = [{ label: "the state just written", state: next }];
          const expected = [{ label: "the state just written", state: after }];
          const problem =
            checkWrite(results[1]!, next) ??
            checkLoad(results[2]!, again) ??
            checkWrite(results[3]!, after) ??
            checkLoad(results[4]!, expected) ??
            (checkLoad(results[5]!, expected) && `after a further restart, ${checkLoad(results[5]!, expected)}`);
          if (problem) {
            const story = await crashStory(box, w, w.cuts[i]!);
            return `${story}\nThe next process loaded, wrote the same state again, then ${showState(after, 60)}: ${problem}.`;
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
