// power-loss.never-torn: after a power cut at any point inside atomicCheckpoint (unsynced data
// lost or half kept, folder changes not fsynced lost or kept), loadCheckpoint returns the old
// state or the new one: never an empty file or garbage.
import fc from "fast-check";
import { findMark } from "../../crash/cuts.js";
import { load, loadWrong } from "../../grading/calls.js";
import type { Finding } from "../../contract/finding.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState } from "../../grading/states.js";
import { NONE, judgeWindow, largeStateCase, recordWindow, type CrashWindow, type OldState } from "../phase1/crash-window.js";
import { powerCuts, powerSetting } from "./power-window.js";

export const neverTorn: CheckDefinition = {
  id: "power-loss.never-torn",
  async run(ctx) {
    const box = ctx.sandbox();
    const cutPower = async (w: CrashWindow): Promise<Finding | null> => {
      const end = findMark(w.trace, "return:atomicCheckpoint", w.start) - 1;
      const cuts = powerCuts(w.trace, w.start, end, { maxPoints: w.maxCuts });
      const outcomes = await box.runMany("checkpoint", w.traceId, cuts, [load()]);
      for (const [i, { results }] of outcomes.entries()) {
        const wrong = loadWrong(results[0]!, w.allowed);
        if (wrong) return { setting: await powerSetting(box, w, cuts[i]!, end, { draw: (p) => ctx.draw(p) }), when: { kind: "on-restart" }, wrong };
      }
      return null;
    };
    const couldNot = "Could not record a write to cut the power in";
    const found =
      (await findCounterexample(ctx, fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState() }), async ({ old, next }) => judgeWindow(await recordWindow(box, old, next), couldNot, cutPower), { numRuns: 20, examples: [{ old: { step: 1 }, next: { step: 2 } }, { old: NONE, next: [1, 2, 3] }] })) ??
      (await largeStateCase(ctx, box, couldNot, cutPower));
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
