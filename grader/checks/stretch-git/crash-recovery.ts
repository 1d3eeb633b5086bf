// stretch-git.crash-recovery: killed inside the state file's write, between the write and the
// commit, right after the commit, or at any step boundary, and run again: no step is lost, every
// step runs on the right state, a step runs again only when its commit had not happened, and the
// branch holds what branch.ts asks: one commit per step, in order, only the first naming no step.
import type { CheckDefinition } from "../../grading/harness.js";
import { aroundGitCuts, recoverFromGitCuts } from "./git-cuts.js";

export const gitCrashRecovery: CheckDefinition = {
  id: "stretch-git.crash-recovery",
  run: (ctx) => recoverFromGitCuts(ctx, aroundGitCuts),
};
