// phase2.killed-at-step-6: the handout's scenario with real processes. The first is killed with
// SIGKILL the moment runStep(6) is entered (the manifest's task.killedAtStep); the second resumes,
// runs steps 6 to the last, and no step runs twice.
import path from "node:path";
import type { CheckDefinition } from "../../grading/harness.js";
import { gradedTask, recordWrong, type Done, type GradedTask } from "./ledger.js";
import { makeScenarioFolder } from "../../sandbox/supervisor/process-client.js";
import { processSays, processWrong } from "../../grading/calls.js";
import type { StepsByProcess } from "../../contract/finding.js";
import { runResultWrong, runTaskStep, unreturnedRun } from "./task-run.js";
import { runsPicture } from "./runs-picture.js";
import { taskWrongMark } from "../../report/task-words.js";

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
      const instead = processWrong(first, "runTask") ?? (first.results && runResultWrong(task, first.results[0]!, task.steps)) ?? { kind: "never-entered", step: killedAt };
      return ctx.failed({ setting: { kind: "killed-entering-step", step: killedAt, killed: false }, wrong: instead });
    }
    const second = await run();
    const done = [...first.effects, ...second.effects].filter((e) => e.phase === "done");
    const runOf = new Map<number, number>();
    const record: Done[] = done.map((e) => ({ step: e.step, input: e.input, output: e.output, run: runOf.get(e.pid) ?? runOf.set(e.pid, runOf.size + 1).get(e.pid)! }));
    // A process that did not finish is the story, then a call that did not return (with the steps the
    // record holds), then what the record shows, then what runTask returned.
    const unfinished = processWrong(second, "runTask");
    const result = second.results?.[0];
    const wrong = unfinished ?? unreturnedRun(task, result!, record) ?? recordWrong(task, record) ?? stepsByRun(task, record) ?? runResultWrong(task, result!, task.steps);
    if (!wrong) return ctx.passed();
    // Runs are numbered by the first side effect of each process: drawn only when process 1 had one, so run 1 is process 1.
    if (first.effects.some((e) => e.phase === "done")) {
      const killed = { step: killedAt, at: "in-step" as const, words: `with SIGKILL as it entered runStep(${killedAt})` };
      const mark = wrong.kind === "process" ? { says: processSays(second, wrong) } : taskWrongMark(wrong);
      ctx.draw(() => runsPicture(task, "process", [{ killed }, {}], record, mark));
    }
    return ctx.failed({ setting: { kind: "killed-entering-step", step: killedAt, killed: true }, wrong });
  },
};

/** Steps 1 to 5 must be run by the first process and 6 to the last by the second (with task.killedAtStep 6). */
function stepsByRun(task: GradedTask, record: Done[]): StepsByProcess | null {
  const ran: StepsByProcess["ran"] = [record.filter((d) => d.run === 1).map((d) => d.step), record.filter((d) => d.run === 2).map((d) => d.step)];
  const expected: StepsByProcess["expected"] = [steps(1, task.killedAtStep - 1), steps(task.killedAtStep, task.steps)];
  return ran[0].join() === expected[0].join() && ran[1].join() === expected[1].join() ? null : { kind: "steps-by-process", ran, expected };
}

/** The steps `from` to `to`, in order. */
function steps(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, k) => from + k);
}
