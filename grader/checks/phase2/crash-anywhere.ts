// phase2.crash-anywhere: killed at any point of a run (every change to the disk, the middle of
// every write, every boundary, inside every step) and run again, no step is lost, every step runs
// on the right state, and only a step whose checkpoint was not yet complete runs again.
import type { CheckDefinition } from "../../grading/harness.js";
import { gradedTask } from "./ledger.js";
import { allCuts, recordRun, recoverFromEach } from "./crash-recovery.js";

export const crashAnywhere: CheckDefinition = {
  id: "phase2.crash-anywhere",
  async run(ctx) {
    const box = ctx.sandbox();
    const run = await recordRun(box);
    if (typeof run === "string") return ctx.failedWithoutCrash(`A run with no crash failed first: ${run}.`);
    const problem = await recoverFromEach(gradedTask(ctx.config.rubric.task), box, run, allCuts(run), undefined, (picture) => ctx.draw(picture));
    if (problem) return ctx.failed(problem);
    return ctx.passed();
  },
};
