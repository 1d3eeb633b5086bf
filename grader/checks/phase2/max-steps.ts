// phase2.max-steps: runs with step budgets, each a new process, pause after exactly their budget
// and resume where the last one stopped; the last one returns "done".
import fc from "fast-check";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import type { ScenarioStep } from "../../sandbox/messages/scenario.js";
import type { BudgetSteps, Finding, TaskResultWrong } from "../../contract/finding.js";
import { doneEffects, gradedTask, recordWrong } from "./ledger.js";
import { restart, runResultWrong, runTaskStep } from "./task-run.js";
import { runsPicture } from "./runs-picture.js";
import { taskResultWords, taskWrongMark, type WrongMark } from "../../report/task-words.js";

export const maxSteps: CheckDefinition = {
  id: "phase2.max-steps",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const box = ctx.sandbox();
    const found = await findCounterexample(
      ctx,
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 6 }),
      async (budgets): Promise<Finding | null> => {
        const steps: ScenarioStep[] = budgets.flatMap((b) => [runTaskStep(b), restart]);
        steps.push(runTaskStep());
        const run = await box.run("runner", { steps }, { record: true });
        let done = 0;
        const calls = segments(run.trace?.entries ?? []); // no trace when a call timed out: judged on that alone
        // The failure, with the picture of every run's steps (none without a trace); a run's own failure is marked on that run.
        const fail = (wrong: Finding["wrong"], mark: WrongMark, inRun?: number): Finding => {
          const record = calls.flatMap((c, i) => doneEffects(c, i + 1));
          if (run.trace) ctx.draw(() => runsPicture(task, "run", [...budgets.map((budget) => ({ budget })), {}], record, mark));
          return { when: { kind: "budgeted-runs", budgets, ...(inRun === undefined ? {} : { inRun }) }, wrong };
        };
        const resultOf = (wrong: TaskResultWrong, run: number) => fail(wrong, { run, says: `in run ${run}, ${taskResultWords(wrong)}` }, run);
        for (const [i, r] of run.results.entries()) {
          const budget = budgets[i] ?? Infinity;
          const expectedRan = Math.min(budget, task.steps - done);
          const ran = doneEffects(calls[i] ?? [], i + 1).map((d) => d.step);
          const wanted = Array.from({ length: expectedRan }, (_, k) => done + k + 1);
          const threw = r.status !== "returned" && runResultWrong(task, r, done + expectedRan);
          if (threw) return resultOf(threw, i + 1);
          if (ran.join() !== wanted.join()) {
            const wrong: BudgetSteps = { kind: "budget-steps", run: i + 1, ...(budgets[i] === undefined ? {} : { maxSteps: budgets[i] }), ran, expected: wanted };
            return fail(wrong, taskWrongMark(wrong));
          }
          done += expectedRan;
          const wrong = runResultWrong(task, r, done);
          if (wrong) return resultOf(wrong, i + 1);
        }
        const wrong = recordWrong(task, calls.flatMap((c, i) => doneEffects(c, i + 1)));
        return wrong && fail(wrong, taskWrongMark(wrong));
      },
      // The handout's sessions, the whole task at once, and many short runs.
      { numRuns: 12, examples: [task.sessions, [task.steps], [3, 3, 3, 3], [1, 1, 1, 1, 1, 1]] },
    );
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};

/** The trace cut into the entries of each runTask call. */
function segments<E extends { kind: string; label?: string }>(entries: E[]): E[][] {
  const out: E[][] = [];
  for (const e of entries) {
    if (e.kind === "mark" && e.label === "call:runTask") out.push([]);
    else out.at(-1)?.push(e);
  }
  return out;
}
