// phase2.max-steps: runs with step budgets, each a new process, pause after exactly their budget
// and resume where the last one stopped; the last one returns "done".
import fc from "fast-check";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { judgedPlace, toldOutcome } from "../../grading/told.js";
import type { ScenarioStep } from "../../sandbox/messages/scenario.js";
import { doneEffects, gradedTask, judgeRecord } from "./ledger.js";
import { checkRunResult, restart, runTaskStep } from "./task-run.js";
import { runsPicture } from "./runs-picture.js";

export const maxSteps: CheckDefinition = {
  id: "phase2.max-steps",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const box = ctx.sandbox();
    const found = await findCounterexample(
      ctx,
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 6 }),
      async (budgets) => {
        const steps: ScenarioStep[] = budgets.flatMap((b) => [runTaskStep(b), restart]);
        steps.push(runTaskStep());
        const run = await box.run("runner", { steps }, { record: true });
        const story = `Ran runTask in ${budgets.length + 1} processes with maxSteps ${budgets.join(", ")}, then none`;
        let done = 0;
        const calls = segments(run.trace?.entries ?? []); // no trace when a call timed out: judged on that alone
        // The story's complaint, with the picture of every run's steps (none without a trace).
        // A run's own complaint is marked on that run, in the story's words.
        const fail = (problem: string, place = judgedPlace()) => {
          const record = calls.flatMap((c, i) => doneEffects(c, i + 1));
          if (run.trace) ctx.draw(() => runsPicture(task, "run", [...budgets.map((budget) => ({ budget })), {}], record, { ...place, says: place?.says ?? problem }));
          return `${story}: ${problem}.`;
        };
        for (const [i, r] of run.results.entries()) {
          const budget = budgets[i] ?? Infinity;
          const expectedRan = Math.min(budget, task.steps - done);
          const ran = doneEffects(calls[i] ?? [], i + 1).map((d) => d.step);
          const wanted = Array.from({ length: expectedRan }, (_, k) => done + k + 1);
          const ofRun = (problem: string) => fail(problem, { run: i + 1, says: problem });
          if (r.status !== "returned") return ofRun(`in run ${i + 1}, ${checkRunResult(task, r, done + expectedRan)}`);
          if (ran.join() !== wanted.join()) {
            toldOutcome(`a run ${budgets[i] ? "with maxSteps" : "with no maxSteps"} ran other steps than the next ones it had left`, { judged: true });
            return ofRun(`run ${i + 1}${budgets[i] ? ` (maxSteps ${budgets[i]})` : ""} ran steps [${ran.join(", ")}]; expected [${wanted.join(", ")}]`);
          }
          done += expectedRan;
          const problem = checkRunResult(task, r, done);
          if (problem) return ofRun(`in run ${i + 1}, ${problem}`);
        }
        const all = calls.flatMap((c, i) => doneEffects(c, i + 1));
        const problem = judgeRecord(task, all);
        return problem && fail(problem);
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
