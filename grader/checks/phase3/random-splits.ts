// phase3.random-splits: three sessions with other budgets that add up to the task's steps, chosen
// by fast-check.
import fc from "fast-check";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { runSplit } from "./splits.js";

/** Three positive budgets that add up to `steps`. */
function splits(steps: number): fc.Arbitrary<number[]> {
  return fc
    .tuple(fc.integer({ min: 1, max: steps - 2 }), fc.integer({ min: 1, max: steps - 2 }))
    .filter(([a, b]) => a + b <= steps - 1)
    .map(([a, b]) => [a, b, steps - a - b]);
}

export const randomSplits: CheckDefinition = {
  id: "phase3.random-splits",
  async run(ctx) {
    const { steps } = ctx.config.rubric.task;
    // The most lopsided splits first: nearly all the task in the last session, then in the first.
    const examples = [[1, 1, steps - 2], [steps - 2, 1, 1]];
    const found = await findCounterexample(ctx, splits(steps), (budgets) => runSplit(ctx, budgets), { numRuns: 3, examples });
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
