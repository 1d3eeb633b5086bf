// power-loss.durable: once atomicCheckpoint has returned, the new state survives a power cut,
// whatever became of what the write did not make durable.
import fc from "fast-check";
import { findMark } from "../../crash/cuts.js";
import { POWER_POLICIES } from "../../crash/power-loss.js";
import { load, loadWrong } from "../../grading/calls.js";
import type { Finding } from "../../contract/finding.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState } from "../../grading/states.js";
import { NONE, judgeWindow, largeStateCase, recordWindow, type CrashWindow, type OldState } from "../phase1/crash-window.js";
import { powerSetting } from "./power-window.js";

export const durable: CheckDefinition = {
  id: "power-loss.durable",
  async run(ctx) {
    const box = ctx.sandbox();
    const cutPower = async (w: CrashWindow): Promise<Finding | null> => {
      const end = findMark(w.trace, "return:atomicCheckpoint", w.start) - 1;
      const cuts = POWER_POLICIES.map((policy) => ({ at: end, power: { ...policy, settled: w.start } }));
      const outcomes = await box.runMany("checkpoint", w.traceId, cuts, [load()]);
      for (const [i, { results }] of outcomes.entries()) {
        const wrong = loadWrong(results[0]!, [{ label: "the new state", state: w.next }]);
        if (wrong) return { setting: await powerSetting(box, w, cuts[i]!, end, { draw: (p) => ctx.draw(p) }), when: { kind: "on-restart" }, wrong };
      }
      return null;
    };
    const couldNot = "Could not record a write to cut the power after";
    const found =
      (await findCounterexample(ctx, fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState() }), async ({ old, next }) => judgeWindow(await recordWindow(box, old, next), couldNot, cutPower), { numRuns: 10, examples: [{ old: { step: 1 }, next: { step: 2 } }, { old: NONE, next: { step: 1 } }] })) ??
      (await largeStateCase(ctx, box, couldNot, cutPower));
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
