// phase2.finished: started again on a finished checkpoint, runTask calls no runStep and returns
// "done" with the final state.
import type { CheckDefinition } from "../../grading/harness.js";
import { checkRunResult, restart, runTaskStep } from "./task-run.js";
import { gradedTask } from "./ledger.js";

/** The maxSteps of the runs after the task was done (run 2, run 3): none, then a budget. */
const LATER_RUNS = [undefined, 3] as const;

export const finished: CheckDefinition = {
  id: "phase2.finished",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const box = ctx.sandbox();
    const { results, effects } = await box.run("runner", { steps: [runTaskStep(), ...LATER_RUNS.flatMap((budget) => [restart, runTaskStep(budget)])] });
    const first = checkRunResult(task, results[0]!, task.steps);
    if (first) return ctx.failed(`The first run, to completion: ${first}.`);
    const again = effects.filter((e, i) => e.phase === "enter" && effects.slice(0, i).filter((x) => x.phase === "done").length >= task.steps);
    if (again.length > 0) {
      // Each run is a process of its own, numbered in order (run 1 did the task), and is told apart.
      const firstPid = effects[0]!.pid;
      const runs = [...new Set(again.map((e) => e.pid))].map((pid) => {
        const calls = again.filter((e) => e.pid === pid).map((e) => `runStep(${e.step})`);
        const run = pid - firstPid + 1;
        const budget = LATER_RUNS[run - 2];
        return `run ${run} (${budget === undefined ? "no maxSteps" : `maxSteps ${budget}`}) called ${calls.join(", ")}`;
      });
      return ctx.failed(`After the task was done, runTask ran again on the finished checkpoint, in a new process each time: ${runs.join("; ")}. Each must call no runStep.`, undefined, { outcome: "runTask called runStep on a finished checkpoint" });
    }
    const problem = checkRunResult(task, results[1]!, task.steps) ?? checkRunResult(task, results[2]!, task.steps);
    return problem ? ctx.failed(`After the task was done, a new process ran runTask again on the finished checkpoint: ${problem}.`) : ctx.passed();
  },
};
