// phase2.complete-run: with no crash, one runTask call runs every step of the task, each once, in order,
// each on the state the step before produced, and returns "done".
import type { CheckDefinition } from "../../grading/harness.js";
import { doneEffects, gradedTask, recordWrong } from "./ledger.js";
import { runResultWrong, runTaskStep } from "./task-run.js";

export const completeRun: CheckDefinition = {
  id: "phase2.complete-run",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const { results, effects } = await ctx.sandbox().run("runner", { steps: [runTaskStep()] });
    const r = results[0]!;
    // A call that did not return is the story; else what the record shows, then what it returned.
    const wrong = r.status !== "returned" ? runResultWrong(task, r, task.steps) : (recordWrong(task, doneEffects(effects, 1)) ?? runResultWrong(task, r, task.steps));
    return wrong ? ctx.failed({ when: { kind: "task-run", run: "whole-once", steps: task.steps }, wrong }) : ctx.passed();
  },
};
