// phase2.crash-schedules: several crashes in a row, the later ones during recovery, chosen by
// fast-check; after a last run to the end, the Phase 2 guarantees still hold.
import fc from "fast-check";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { doneEffects } from "./ledger.js";
import { allCuts, crashStory, judgeRecovery, recordRun, type Crash } from "./crash-recovery.js";
import { runTaskStep } from "./task-run.js";

export const crashSchedules: CheckDefinition = {
  id: "phase2.crash-schedules",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(
      ctx,
      fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 2, maxLength: 4 }),
      async (choices) => {
        const crashes: Crash[] = [];
        for (const choice of choices) {
          const from = crashes.map((c) => ({ traceId: c.run.traceId, cut: c.cut }));
          const run = await recordRun(box, from);
          if (typeof run === "string") return `${crashStory(crashes)}\nRun ${crashes.length + 1} failed: ${run}.`;
          const cuts = allCuts(run);
          crashes.push({ run, cut: cuts[Math.floor(choice * cuts.length)]! });
        }
        const from = crashes.map((c) => ({ traceId: c.run.traceId, cut: c.cut }));
        const last = await box.run("runner", { from, steps: [runTaskStep()] });
        const problem = judgeRecovery(crashes, last.results[0]!, doneEffects(last.effects, crashes.length + 1));
        return problem && `${crashStory(crashes)}\nRun ${crashes.length + 1} then ran runTask to the end: ${problem}.`;
      },
      { numRuns: 25 },
    );
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
