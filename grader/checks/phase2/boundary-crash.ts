// phase2.boundary-crash: killed at any step boundary (just before runStep(s + 1) is called, or
// before runTask returns) and run again, the task finishes with every step run exactly once.
import type { CheckDefinition } from "../../grading/harness.js";
import { gradedTask } from "./ledger.js";
import { boundaryCuts, recordRun, recoverFromEach } from "./crash-recovery.js";

export const boundaryCrash: CheckDefinition = {
  id: "phase2.boundary-crash",
  async run(ctx) {
    const box = ctx.sandbox();
    const run = await recordRun(box);
    const task = gradedTask(ctx.config.rubric.task);
    if ("failed" in run) return ctx.failedWithoutCrash({ when: { kind: "task-run", run: "crash-free", steps: task.steps }, wrong: run.failed });
    const failure = await recoverFromEach(task, box, run, boundaryCuts(run.trace), { draw: (picture) => ctx.draw(picture) });
    return failure ? ctx.failed(failure) : ctx.passed();
  },
};
