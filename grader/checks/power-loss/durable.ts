// power-loss.durable: once atomicCheckpoint has returned, the new state survives a power cut,
// whatever became of what the write did not make durable.
import fc from "fast-check";
import { findMark } from "../../crash/cuts.js";
import { POWER_POLICIES } from "../../crash/power-loss.js";
import { checkLoad, load } from "../../grading/calls.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState, LARGE_STATE_BYTES } from "../../grading/states.js";
import { LARGE_WINDOW, NONE, recordWindow, type OldState } from "../phase1/crash-window.js";
import { powerStory } from "./power-window.js";

export const durable: CheckDefinition = {
  id: "power-loss.durable",
  async run(ctx) {
    const box = ctx.sandbox();
    const cutPower = async ({ old, next }: { old: OldState; next: unknown }, window?: typeof LARGE_WINDOW): Promise<string | null> => {
      const w = window ? await recordWindow(box, old, next, [], window) : await recordWindow(box, old, next);
      if (w === null) return null;
      if (typeof w === "string") return `Could not record a write to cut the power after: ${w}`;
      const end = findMark(w.trace, "return:atomicCheckpoint", w.start) - 1;
      const cuts = POWER_POLICIES.map((policy) => ({ at: end, power: { ...policy, settled: w.start } }));
      const outcomes = await box.runMany("checkpoint", w.traceId, cuts, [load()]);
      for (const [i, { results }] of outcomes.entries()) {
        const problem = checkLoad(results[0]!, [{ label: "the new state", state: next }]);
        if (problem) return powerStory(box, w, cuts[i]!, end, problem, { draw: (p) => ctx.draw(p) });
      }
      return null;
    };
    const found =
      (await findCounterexample(ctx, fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState() }), (pair) => cutPower(pair), { numRuns: 10, examples: [{ old: { step: 1 }, next: { step: 2 } }, { old: NONE, next: { step: 1 } }] })) ??
      // Then, once those pass, a state of a few MiB, as the lab allows (replayed as large/0): a
      // save may make small states durable and not large ones. Apart, so a bug every state shows
      // is told with a small one.
      (await findCounterexample(ctx, fc.constant({ old: { step: 1 } as OldState, next: { big: "n".repeat(LARGE_STATE_BYTES) } }), (pair) => cutPower(pair, LARGE_WINDOW), { numRuns: 1, part: "large" }));
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
