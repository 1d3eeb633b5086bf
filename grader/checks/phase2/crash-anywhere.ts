// phase2.crash-anywhere: killed at any point of a run (every change to the disk, the middle of
// every write, every boundary, inside every step) and run again, no step is lost, every step runs
// on the right state, and only a step whose checkpoint was not yet complete runs again; the same
// for a run that takes up a task an earlier run paused, killed in its first two steps' worth.
import type { CheckDefinition } from "../../grading/harness.js";
import { gradedTask } from "./ledger.js";
import { allCuts, recordRun, recoverFromEach, recoverFromEachAfterPause } from "./crash-recovery.js";
import type { Picture } from "../../contract/picture.js";

export const crashAnywhere: CheckDefinition = {
  id: "phase2.crash-anywhere",
  async run(ctx) {
    const box = ctx.sandbox();
    const run = await recordRun(box);
    const task = gradedTask(ctx.config.rubric.task);
    if ("failed" in run) return ctx.failedWithoutCrash({ when: { kind: "task-run", run: "crash-free", steps: task.steps }, wrong: run.failed });
    const draw = (picture: () => Picture | null) => ctx.draw(picture);
    // Then a run that takes up a paused task, killed in its first steps.
    const failure = (await recoverFromEach(task, box, run, allCuts(run), { draw })) ?? (await recoverFromEachAfterPause(task, box, draw));
    return failure ? ctx.failed(failure) : ctx.passed();
  },
};
