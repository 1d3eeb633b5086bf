// stretch-git.commits: with no crash, the git-backed runTask runs every step of the task once, in
// order, and commits after every step with a message that names it; runs with the handout's
// session budgets (the manifest's task.sessions), each a new process, pause and resume from the
// last commit.
import type { CheckDefinition } from "../../grading/harness.js";
import type { ScenarioStep } from "../../sandbox/messages/scenario.js";
import { doneEffects, gradedTask, judgeRecord } from "../phase2/ledger.js";
import { checkRunResult, restart, runTaskStep } from "../phase2/task-run.js";
import { GIT_SETUP, judgeHistory } from "./git-setup.js";

export const gitCommits: CheckDefinition = {
  id: "stretch-git.commits",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const box = ctx.sandbox();
    const { module, checkpoint, inspectGit } = GIT_SETUP;
    const whole = await box.run(module, { steps: [runTaskStep(undefined, checkpoint)], inspectGit });
    const r = whole.results[0]!;
    const problem = r.status !== "returned" ? checkRunResult(task, r, task.steps) : (judgeRecord(task, doneEffects(whole.effects, 1)) ?? checkRunResult(task, r, task.steps) ?? judgeHistory(whole.git, task.steps));
    if (problem) return ctx.failed(`runTask (git-checkpoint.ts) ran the ${task.steps}-step task once, with no crash, in an empty folder: ${problem}.`);

    // The runs after the first: the handout's three sessions.
    const steps: ScenarioStep[] = task.sessions.flatMap((b) => [restart, runTaskStep(b, checkpoint)]);
    const split = await box.run(module, { steps, inspectGit });
    const story = `runTask (git-checkpoint.ts) ran in ${task.sessions.length} processes with maxSteps ${task.sessions.join(", ")}`;
    let done = 0;
    for (const [i, result] of split.results.entries()) {
      done += task.sessions[i]!;
      const wrong = checkRunResult(task, result, done);
      if (wrong) return ctx.failed(`${story}: in run ${i + 1}, ${wrong}.`);
    }
    const wrong = judgeRecord(task, doneEffects(split.effects, 1), [], "run") ?? judgeHistory(split.git, task.steps);
    return wrong ? ctx.failed(`${story}: ${wrong}.`) : ctx.passed();
  },
};
