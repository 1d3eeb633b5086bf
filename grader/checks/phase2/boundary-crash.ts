// phase2.boundary-crash: killed at any step boundary (just before runStep(s + 1) is called, or
// before runTask returns) and run again, the task finishes with every step run exactly once.
import type { CheckDefinition } from "../../grading/harness.js";
import { doneEffects } from "./ledger.js";
import { boundaryCuts, crashStory, judgeRecovery, recordRun } from "./crash-recovery.js";
import { runTaskStep } from "./task-run.js";

export const boundaryCrash: CheckDefinition = {
  id: "phase2.boundary-crash",
  async run(ctx) {
    const box = ctx.sandbox();
    const run = await recordRun(box);
    if (typeof run === "string") return ctx.failed(`A run with no crash failed first: ${run}.`);
    const cuts = boundaryCuts(run.trace);
    const outcomes = await box.runMany("runner", run.traceId, cuts, [runTaskStep()]);
    for (const [i, o] of outcomes.entries()) {
      const crashes = [{ run, cut: cuts[i]! }];
      const problem = judgeRecovery(crashes, o.results[0]!, doneEffects(o.effects, 2));
      if (problem) return ctx.failed(`${crashStory(crashes)}\nRun 2, a new process, then ran runTask to the end: ${problem}.`);
    }
    return ctx.passed();
  },
};
