// stretch-git.crash-schedules: one to four crashes in a row, the later ones during recovery (inside
// its own git commands too, such as the git reset that restores the last commit), chosen by
// fast-check; after a last run to the end, no step is lost and the branch is as branch.ts asks.
import type { CheckDefinition } from "../../grading/harness.js";
import { checkCrashSchedules } from "../phase2/crash-schedules.js";
import { aroundGitCuts, insideGitCuts } from "./git-cuts.js";
import { GIT_SETUP } from "./git-setup.js";
import { byTime } from "../../crash/cuts.js";

export const gitCrashSchedules: CheckDefinition = {
  id: "stretch-git.crash-schedules",
  run: (ctx) => checkCrashSchedules(ctx, GIT_SETUP, (run) => [...aroundGitCuts(run), ...insideGitCuts(run)].sort(byTime), 8),
};
