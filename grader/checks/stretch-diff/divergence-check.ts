// The two property checks of firstDivergence: the same batches of planted divergences, each with
// the answer it was made to have, judged on the step alone (first-step) or on the step and its
// set of paths (paths).
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { firstWrongAnswer } from "./answers.js";
import type { Judged } from "./divergence.js";
import { diffCases, HAND_CASES } from "./histories.js";

/** A check that calls firstDivergence on fast-check's batches of histories and judges what `judged` covers. */
export function divergenceCheck(id: string, judged: Judged): CheckDefinition {
  return {
    id,
    async run(ctx) {
      const box = ctx.sandbox();
      const found = await findCounterexample(ctx, diffCases(), (cases) => firstWrongAnswer(box, cases, judged, { draw: (p) => ctx.draw(p) }), { numRuns: 60, examples: [HAND_CASES] });
      return found ? ctx.failed(found.story, found.path) : ctx.passed();
    },
  };
}
