// phase2.complete-run: with no crash, one runTask call runs every step of the task, each once, in order,
// each on the state the step before produced, and returns "done".
import type { CheckDefinition } from "../../grading/harness.js";
import { doneEffects, gradedTask, judgeRecord } from "./ledger.js";
import { checkRunResult, runTaskStep } from "./task-run.js";

export const completeRun: CheckDefinition = {
  id: "phase2.complete-run",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const { results, effects } = await ctx.sandbox().run("runner", { steps: [runTaskStep()] });
    const r = results[0]!;
    const problem = r.status !== "returned" ? checkRunResult(task, r, task.steps) : (judgeRecord(task, doneEffects(effects, 1)) ?? checkRunResult(task, r, task.steps));
    return problem ? ctx.failed(`runTask ran the ${task.steps}-step task once, with no crash: ${problem}.`) : ctx.passed();
  },
};
