// stretch-git.killed-in-commit: killed inside a git command that writes (git add, git commit),
// which leaves .git/index.lock and objects no ref points at, as a killed git does, and run
// again: recovery copes with the stale lock, and the task ends as after any other crash.
import type { CheckDefinition } from "../../grading/harness.js";
import { insideGitCuts, recoverFromGitCuts } from "./git-cuts.js";

export const gitKilledInCommit: CheckDefinition = {
  id: "stretch-git.killed-in-commit",
  run: (ctx) => recoverFromGitCuts(ctx, insideGitCuts),
};
