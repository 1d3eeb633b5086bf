// phase2.finished: started again on a finished checkpoint, runTask calls no runStep and returns
// "done" with the final state.
import type { CheckDefinition } from "../../grading/harness.js";
import { restart, runResultWrong, runTaskStep } from "./task-run.js";
import { gradedTask } from "./ledger.js";

/** The maxSteps of the runs after the task was done (run 2, run 3): none, then a budget. */
const LATER_RUNS = [undefined, 3] as const;

export const finished: CheckDefinition = {
  id: "phase2.finished",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const box = ctx.sandbox();
    const { results, effects } = await box.run("runner", { steps: [runTaskStep(), ...LATER_RUNS.flatMap((budget) => [restart, runTaskStep(budget)])] });
    const first = runResultWrong(task, results[0]!, task.steps);
    if (first) return ctx.failed({ when: { kind: "task-run", run: "first-to-end", steps: task.steps }, wrong: first });
    const again = effects.filter((e, i) => e.phase === "enter" && effects.slice(0, i).filter((x) => x.phase === "done").length >= task.steps);
    if (again.length > 0) {
      // Each run is a process of its own, numbered in order (run 1 did the task), and is told apart.
      const firstPid = effects[0]!.pid;
      const runs = [...new Set(again.map((e) => e.pid))].map((pid) => {
        const run = pid - firstPid + 1;
        const maxSteps = LATER_RUNS[run - 2];
        return { run, ...(maxSteps === undefined ? {} : { maxSteps }), steps: again.filter((e) => e.pid === pid).map((e) => e.step) };
      });
      return ctx.failed({ wrong: { kind: "ran-when-done", runs } });
    }
    const wrong = runResultWrong(task, results[1]!, task.steps) ?? runResultWrong(task, results[2]!, task.steps);
    return wrong ? ctx.failed({ when: { kind: "task-run", run: "again-when-done", steps: task.steps }, wrong }) : ctx.passed();
  },
};
