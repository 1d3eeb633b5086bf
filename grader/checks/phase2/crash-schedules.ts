// phase2.crash-schedules: one to four crashes in a row, the later ones during recovery, in runs
// with or without a step budget, chosen by fast-check; after a last run to the end, the Phase 2
// guarantees still hold.
import fc from "fast-check";
import type { Cut } from "../../crash/model.js";
import type { CheckContext } from "../../grading/context.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { fraction } from "../../grading/states.js";
import type { Verdict } from "../../contract/verdict.js";
import { doneEffects, gradedTask } from "./ledger.js";
import { allCuts, recordRun, recoveryFailure, type Crash, type RecordedRun } from "./crash-recovery.js";
import { FILE_SETUP, runTaskStep, type TaskSetup } from "./task-run.js";

export const crashSchedules: CheckDefinition = {
  id: "phase2.crash-schedules",
  run: (ctx) => checkCrashSchedules(ctx, FILE_SETUP, (run) => allCuts(run), 30),
};

/**
 * Runs `numRuns` schedules of crashes chosen by fast-check (each at one of the points `cutsOf`
 * finds in its run), then a last run to the end, and judges the record and, for git, the repository.
 */
export async function checkCrashSchedules(ctx: CheckContext, setup: TaskSetup, cutsOf: (run: RecordedRun) => Cut[], numRuns: number): Promise<Verdict> {
  const task = gradedTask(ctx.config.rubric.task);
  const box = ctx.sandbox();
  const found = await findCounterexample(
    ctx,
    // Each run before the last: a step budget (or none) and where in that run the crash lands.
    fc.array(fc.record({ budget: fc.option(fc.integer({ min: 1, max: task.steps }), { nil: undefined }), at: fraction() }), { minLength: 1, maxLength: 4 }),
    async (schedule) => {
      const crashes: Crash[] = [];
      for (const { budget, at } of schedule) {
        const from = crashes.map((c) => ({ traceId: c.run.traceId, cut: c.cut }));
        const run = await recordRun(box, from, budget, setup);
        if ("failed" in run) return { ...(crashes.length > 0 ? { setting: { kind: "task-crashes", crashes } } : {}), when: { kind: "after-crashes", run: crashes.length + 1, newProcess: false, toCrash: true }, wrong: run.failed };
        const cuts = cutsOf(run);
        crashes.push({ run, cut: cuts[Math.floor(at * cuts.length)]!, budget });
      }
      const from = crashes.map((c) => ({ traceId: c.run.traceId, cut: c.cut }));
      const last = await box.run(setup.module, { from, steps: [runTaskStep(undefined, setup.checkpoint)], inspectGit: setup.inspectGit });
      const run = crashes.length + 1;
      return recoveryFailure(task, crashes, { run, newProcess: false, result: last.results[0]!, effects: doneEffects(last.effects, run), git: last.git }, { setup, draw: (picture) => ctx.draw(picture) });
    },
    { numRuns, examples: [[{ budget: task.sessions[0]!, at: 0.5 }], [{ budget: undefined, at: 0.3 }, { budget: undefined, at: 0.5 }]] },
  );
  return found ? ctx.failed(found.story, found.path) : ctx.passed();
}
