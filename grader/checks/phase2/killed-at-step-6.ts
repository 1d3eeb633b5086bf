// phase2.killed-at-step-6: the handout's scenario with real processes. The first is killed with
// SIGKILL the moment runStep(6) is entered (the manifest's task.killedAtStep); the second resumes,
// runs steps 6 to the last, and no step runs twice.
import path from "node:path";
import type { CheckDefinition } from "../../grading/harness.js";
import { gradedTask, judgeRecord, type Done, type GradedTask } from "./ledger.js";
import { makeScenarioFolder } from "../../sandbox/supervisor/process-client.js";
import { unfinishedProcess } from "../../grading/calls.js";
import { judgedPlace, toldOutcome } from "../../grading/told.js";
import { checkRunResult, runTaskStep } from "./task-run.js";
import { runsPicture } from "./runs-picture.js";

export const killedAtStep6: CheckDefinition = {
  id: "phase2.killed-at-step-6",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    // The step the first process is killed entering: the handout's scenario.
    const killedAt = task.killedAtStep;
    const root = makeScenarioFolder(path.join(ctx.config.work, `${ctx.checkId}-${ctx.variant?.label.length ?? 0}`));
    const run = (kill?: { enterStep: number }) =>
      ctx.process({
        bundle: ctx.bundles.runner!,
        entry: "runner.ts",
        targetDir: ctx.config.targetDir,
        root,
        steps: [runTaskStep()],
        kill,
      });

    const first = await run({ enterStep: killedAt });
    ctx.countCrashStates(1);
    if (first.signal !== "SIGKILL") {
      const how = unfinishedProcess(first, "runTask") ?? (first.results && checkRunResult(task, first.results[0]!, task.steps));
      return ctx.failed(`Process 1 ran runTask, to be killed when it entered runStep(${killedAt}), but it never did${how ? `: ${how}` : ""}.`, undefined, how ? {} : { outcome: "runTask never entered the step it was to be killed in" });
    }
    const second = await run();
    const problem = unfinishedProcess(second, "runTask");
    const done = [...first.effects, ...second.effects].filter((e) => e.phase === "done");
    const runOf = new Map<number, number>();
    const record: Done[] = done.map((e) => ({ step: e.step, input: e.input, output: e.output, run: runOf.get(e.pid) ?? runOf.set(e.pid, runOf.size + 1).get(e.pid)! }));
    const verdict = problem ?? judgeRecord(task, record) ?? stepsByRun(task, record) ?? checkRunResult(task, second.results![0]!, task.steps);
    if (!verdict) return ctx.passed();
    // Runs are numbered by the first side effect of each process: drawn only when process 1 had one, so run 1 is process 1.
    if (first.effects.some((e) => e.phase === "done")) {
      const killed = { step: killedAt, at: "in-step" as const, words: `with SIGKILL as it entered runStep(${killedAt})` };
      const place = judgedPlace();
      ctx.draw(() => runsPicture(task, "process", [{ killed }, {}], record, { ...place, says: place?.says ?? verdict }));
    }
    return ctx.failed(`Process 1 ran runTask and was killed with SIGKILL as it entered runStep(${killedAt}). Process 2 ran runTask again: ${verdict}.`);
  },
};

/** Steps 1 to 5 must be run by the first process and 6 to the last by the second (with task.killedAtStep 6). */
function stepsByRun(task: GradedTask, record: Done[]): string | null {
  const first = record.filter((d) => d.run === 1).map((d) => d.step);
  const second = record.filter((d) => d.run === 2).map((d) => d.step);
  const wanted = [steps(1, task.killedAtStep - 1), steps(task.killedAtStep, task.steps)];
  if (first.join() === wanted[0]!.join() && second.join() === wanted[1]!.join()) return null;
  const says = `the record shows steps [${first.join(", ")}] in process 1 and [${second.join(", ")}] in process 2; expected [${wanted[0]!.join(", ")}] and [${wanted[1]!.join(", ")}]`;
  toldOutcome("the two processes ran other steps than the kill allows", { judged: true, place: { says } });
  return says;
}

/** The steps `from` to `to`, in order. */
function steps(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, k) => from + k);
}
