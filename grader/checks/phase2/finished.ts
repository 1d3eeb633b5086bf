// phase2.finished: started again on a finished checkpoint, runTask calls no runStep and returns
// "done" with the final state.
import type { CheckDefinition } from "../../grading/harness.js";
import { checkRunResult, restart, runTaskStep } from "./task-run.js";
import { STEPS } from "./ledger.js";

export const finished: CheckDefinition = {
  id: "phase2.finished",
  async run(ctx) {
    const box = ctx.sandbox();
    const { results, effects } = await box.run("runner", { steps: [runTaskStep(), restart, runTaskStep(), restart, runTaskStep(3)] });
    const first = checkRunResult(results[0]!, STEPS);
    if (first) return ctx.failed(`The first run, to completion: ${first}.`);
    const again = effects.filter((e, i) => e.phase === "enter" && effects.slice(0, i).filter((x) => x.phase === "done").length >= STEPS);
    if (again.length > 0) {
      return ctx.failed(`After the task was done, a new process ran runTask again on the finished checkpoint, and it called runStep(${again.map((e) => e.step).join("), runStep(")}); it must call no runStep.`);
    }
    const problem = checkRunResult(results[1]!, STEPS) ?? checkRunResult(results[2]!, STEPS);
    return problem ? ctx.failed(`After the task was done, a new process ran runTask again on the finished checkpoint: ${problem}.`) : ctx.passed();
  },
};
