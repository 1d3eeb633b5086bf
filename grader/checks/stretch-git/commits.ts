// stretch-git.commits: with no crash, the git-backed runTask runs steps 1 to 10 once each, in
// order, and commits after every step with a message that names it; runs with step budgets,
// each a new process, pause and resume from the last commit.
import type { CheckDefinition } from "../../grading/harness.js";
import type { ScenarioStep } from "../../sandbox/messages/scenario.js";
import { doneEffects, judgeRecord } from "../phase2/ledger.js";
import { checkRunResult, restart, runTaskStep } from "../phase2/task-run.js";
import { GIT_SETUP, judgeHistory } from "./git-setup.js";
import { TASK_STEPS } from "../../../lab/task.js";

/** The step budgets of the runs after the first check: the handout's three sessions. */
const SESSIONS = [4, 4, 2];

export const gitCommits: CheckDefinition = {
  id: "stretch-git.commits",
  async run(ctx) {
    const box = ctx.sandbox();
    const { module, checkpoint, inspectGit } = GIT_SETUP;
    const whole = await box.run(module, { steps: [runTaskStep(undefined, checkpoint)], inspectGit });
    const r = whole.results[0]!;
    const problem = r.status !== "returned" ? checkRunResult(r, TASK_STEPS) : (judgeRecord(doneEffects(whole.effects, 1)) ?? checkRunResult(r, TASK_STEPS) ?? judgeHistory(whole.git, TASK_STEPS));
    if (problem) return ctx.failed(`runTask (git-checkpoint.ts) ran the ${TASK_STEPS}-step task once, with no crash, in an empty folder: ${problem}.`);

    const steps: ScenarioStep[] = SESSIONS.flatMap((b) => [restart, runTaskStep(b, checkpoint)]);
    const split = await box.run(module, { steps, inspectGit });
    const story = `runTask (git-checkpoint.ts) ran in ${SESSIONS.length} processes with maxSteps ${SESSIONS.join(", ")}`;
    let done = 0;
    for (const [i, result] of split.results.entries()) {
      done += SESSIONS[i]!;
      const wrong = checkRunResult(result, done);
      if (wrong) return ctx.failed(`${story}: in run ${i + 1}, ${wrong}.`);
    }
    const wrong = judgeRecord(doneEffects(split.effects, 1), [], "run") ?? judgeHistory(split.git, TASK_STEPS);
    return wrong ? ctx.failed(`${story}: ${wrong}.`) : ctx.passed();
  },
};
