// phase1.crash-safety: for every crash point inside atomicCheckpoint (after each file-system
// call, and inside each write), loadCheckpoint returns the old state or the new one.
import fc from "fast-check";
import { load, loadWrong } from "../../grading/calls.js";
import type { Finding } from "../../contract/finding.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { fraction, jsonState, largeState } from "../../grading/states.js";
import { NONE, crashSetting, judgeWindow, largeStateCase, recordWindow, type CrashWindow, type OldState } from "./crash-window.js";

const oldState: fc.Arbitrary<OldState> = fc.oneof(fc.constant(NONE), jsonState());

export const crashSafety: CheckDefinition = {
  id: "phase1.crash-safety",
  async run(ctx) {
    const box = ctx.sandbox();
    const loadAfterEach = async (w: CrashWindow): Promise<Finding | null> => {
      const outcomes = await box.runMany("checkpoint", w.traceId, w.cuts, [load()]);
      for (const [i, { results }] of outcomes.entries()) {
        const wrong = loadWrong(results[0]!, w.allowed);
        if (wrong) return { setting: await crashSetting(box, w, w.cuts[i]!, { draw: (p) => ctx.draw(p) }), when: { kind: "on-restart" }, wrong };
      }
      return null;
    };
    const couldNot = "Could not record a write to crash";
    const found =
      (await findCounterexample(ctx, fc.record({ old: oldState, next: jsonState(), fractions: fc.array(fraction(), { maxLength: 3 }) }), async ({ old, next, fractions }) => judgeWindow(await recordWindow(box, old, next, fractions), couldNot, loadAfterEach), {
        numRuns: 40,
        examples: [
          { old: { step: 1 }, next: { step: 2 }, fractions: [] },
          { old: NONE, next: [1, 2, 3], fractions: [] },
          { old: 1234567, next: 89, fractions: [] },
          ...fc.sample(fc.tuple(largeState(), largeState()), { seed: ctx.seed, numRuns: 2 }).map(([old, next]) => ({ old, next, fractions: [0.25, 0.75] })),
        ],
      })) ?? (await largeStateCase(ctx, box, couldNot, loadAfterEach));
    if (!found) return ctx.passed();
    return ctx.failed(found.story, found.path);
  },
};
