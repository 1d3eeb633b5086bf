// power-loss.never-torn: after a power cut at any point inside atomicCheckpoint (unsynced data
// lost or half kept, folder changes not fsynced lost or kept), loadCheckpoint returns the old
// state or the new one: never an empty file or garbage.
import fc from "fast-check";
import { findMark } from "../../crash/cuts.js";
import { checkLoad, load } from "../../grading/calls.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState, LARGE_STATE_BYTES } from "../../grading/states.js";
import { LARGE_WINDOW, NONE, recordWindow, type OldState } from "../phase1/crash-window.js";
import { powerCuts, powerStory } from "./power-window.js";

export const neverTorn: CheckDefinition = {
  id: "power-loss.never-torn",
  async run(ctx) {
    const box = ctx.sandbox();
    const cutPower = async ({ old, next }: { old: OldState; next: unknown }, window?: typeof LARGE_WINDOW): Promise<string | null> => {
      const w = window ? await recordWindow(box, old, next, [], window) : await recordWindow(box, old, next);
      if (w === null) return null;
      if (typeof w === "string") return `Could not record a write to cut the power in: ${w}`;
      const end = findMark(w.trace, "return:atomicCheckpoint", w.start) - 1;
      const cuts = powerCuts(w.trace, w.start, end, window && { maxPoints: window.maxCuts });
      const outcomes = await box.runMany("checkpoint", w.traceId, cuts, [load()]);
      for (const [i, { results }] of outcomes.entries()) {
        const problem = checkLoad(results[0]!, w.allowed);
        if (problem) return powerStory(box, w, cuts[i]!, end, problem, { draw: (p) => ctx.draw(p) });
      }
      return null;
    };
    const found =
      (await findCounterexample(ctx, fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState() }), (pair) => cutPower(pair), { numRuns: 20, examples: [{ old: { step: 1 }, next: { step: 2 } }, { old: NONE, next: [1, 2, 3] }] })) ??
      // Then, once those pass, a state of a few MiB, as the lab allows (replayed as large/0): a
      // save may make small states durable and not large ones. Apart, so a bug every state shows
      // is told with a small one. Written in small pieces, it is cut after a sample of them.
      (await findCounterexample(ctx, fc.constant({ old: { step: 1 } as OldState, next: { big: "n".repeat(LARGE_STATE_BYTES) } }), (pair) => cutPower(pair, LARGE_WINDOW), { numRuns: 1, part: "large" }));
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
