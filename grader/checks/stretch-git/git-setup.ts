// How the git-backed runner is run and judged: git-checkpoint.ts's runTask, with its state file in
// the scenario's work folder, which is its repository; after each run the grader reads the
// branch's history as git itself reports it (sandbox/git/git-history.ts).
import { spawnSync } from "node:child_process";
import type { CheckDefinition } from "../../grading/harness.js";
import type { GitHistory } from "../../sandbox/git/git-history.js";
import type { TaskSetup } from "../phase2/task-run.js";
import { judgeBranch } from "./branch.js";
import { toldOutcome } from "../../grading/told.js";

/** The git-backed runner's setup: the repository is the folder of the state file. */
export const GIT_SETUP: TaskSetup = {
  module: "git-checkpoint",
  checkpoint: { $path: "work/state.json" },
  inspectGit: "work",
  judgeRepo: judgeHistory,
};

/**
 * Null when the branch holds what the handout asks after `stepsDone` steps (judgeBranch) and the
 * work tree matches the last commit; otherwise what is wrong, in git's terms.
 */
export function judgeHistory(git: GitHistory | undefined, stepsDone: number): string | null {
  if (!git) return toldOutcome("the grader could not read the repository", { judged: true }), "the grader could not read the repository";
  if (git.problem) return toldOutcome("git found no history in the state file's folder", { judged: true }), `git found no history in the state file's folder (${git.problem})${stepsDone > 0 ? `; expected ${commitsWord(stepsDone)}` : ""}`;
  const wrong = judgeBranch(git.subjects, stepsDone);
  if (wrong) return wrong;
  if (git.uncommitted.length > 0) {
    const says = `once runTask returned, the work tree did not hold what the last commit holds (${git.uncommitted.slice(0, 3).map((l) => JSON.stringify(l)).join(", ")} differ${git.uncommitted.length === 1 ? "s" : ""})`;
    toldOutcome("the work tree differs from the last commit once runTask returned", { judged: true, place: { says } });
    return `${says}: each step's state must be written before it is committed`;
  }
  return null;
}

function commitsWord(steps: number): string {
  return steps === 1 ? "one commit naming step 1" : `one commit per step naming steps 1 to ${steps}`;
}

/** The oldest git whose settings the grader can fix from the environment (GIT_CONFIG_GLOBAL). */
const OLDEST_GIT = [2, 32];
let gitProblem: string | null | undefined;

/** Why this machine's git cannot be used for grading (missing, too old), or null; asked once. */
export function gitUnavailable(): string | null {
  if (gitProblem === undefined) {
    const r = spawnSync("git", ["--version"], { encoding: "utf8" });
    const version = /(\d+)\.(\d+)/.exec(r.stdout ?? "")?.slice(1).map(Number);
    gitProblem = r.error || !version
      ? "git is not installed on this machine, and the git-backed checkpoint runs the real git: install git, or grade where it is installed."
      : version[0]! * 1000 + version[1]! < OLDEST_GIT[0]! * 1000 + OLDEST_GIT[1]!
        ? `This machine's git (${version.join(".")}) is older than ${OLDEST_GIT.join(".")}, the oldest whose settings the grader can fix for a repeatable grade: update git, or grade elsewhere.`
        : null;
  }
  return gitProblem;
}

/** `check`, failing at once with the reason when this machine's git cannot be used. */
export function needsGit(check: CheckDefinition): CheckDefinition {
  return { id: check.id, run: async (ctx) => gitUnavailable() ? ctx.failed(gitUnavailable()!, undefined, { outcome: "this machine's git cannot be used" }) : check.run(ctx) };
}
