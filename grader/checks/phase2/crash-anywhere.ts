// phase2.crash-anywhere: killed at any point of a run (every change to the disk, the middle of
// every write, every boundary, inside every step) and run again, no step is lost, every step runs
// on the right state, and only a step whose checkpoint was not yet complete runs again.
import type { CheckDefinition } from "../../grading/harness.js";
import { doneEffects } from "./ledger.js";
import { allCuts, crashStory, judgeRecovery, recordRun } from "./crash-recovery.js";
import { runTaskStep } from "./task-run.js";

export const crashAnywhere: CheckDefinition = {
  id: "phase2.crash-anywhere",
  async run(ctx) {
    const box = ctx.sandbox();
    const run = await recordRun(box);
    if (typeof run === "string") return ctx.failed(`A run with no crash failed first: ${run}.`);
    const cuts = allCuts(run);
    const outcomes = await box.runMany("runner", run.traceId, cuts, [runTaskStep()]);
    for (const [i, o] of outcomes.entries()) {
      const crashes = [{ run, cut: cuts[i]! }];
      const problem = judgeRecovery(crashes, o.results[0]!, doneEffects(o.effects, 2));
      if (problem) return ctx.failed(`${crashStory(crashes)}\nRun 2, a new process, then ran runTask to the end: ${problem}.`);
    }
    return ctx.passed();
  },
};
