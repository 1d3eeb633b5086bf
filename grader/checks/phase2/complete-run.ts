// phase2.complete-run: with no crash, one runTask call runs steps 1 to 10, each once, in order,
// each on the state the step before produced, and returns "done".
import type { CheckDefinition } from "../../grading/harness.js";
import { STEPS, doneEffects, judgeRecord } from "./ledger.js";
import { checkRunResult, runTaskStep } from "./task-run.js";

export const completeRun: CheckDefinition = {
  id: "phase2.complete-run",
  async run(ctx) {
    const { results, effects } = await ctx.sandbox().run("runner", { steps: [runTaskStep()] });
    const r = results[0]!;
    const problem = r.status !== "returned" ? checkRunResult(r, STEPS) : (judgeRecord(doneEffects(effects, 1)) ?? checkRunResult(r, STEPS));
    return problem ? ctx.failed(`runTask ran the ${STEPS}-step task once, with no crash: ${problem}.`) : ctx.passed();
  },
};
