// phase3.random-splits: three sessions with other budgets that add up to 10, chosen by fast-check.
import fc from "fast-check";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { runSplit } from "./splits.js";
import { TASK_STEPS } from "../../../lab/task.js";

/** Three positive budgets that add up to the task's steps. */
const splits = fc
  .tuple(fc.integer({ min: 1, max: TASK_STEPS - 2 }), fc.integer({ min: 1, max: TASK_STEPS - 2 }))
  .filter(([a, b]) => a + b <= TASK_STEPS - 1)
  .map(([a, b]) => [a, b, TASK_STEPS - a - b]);

export const randomSplits: CheckDefinition = {
  id: "phase3.random-splits",
  async run(ctx) {
    const found = await findCounterexample(ctx, splits, (budgets) => runSplit(ctx, budgets), { numRuns: 3, examples: [[1, 1, 8], [8, 1, 1]] });
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
