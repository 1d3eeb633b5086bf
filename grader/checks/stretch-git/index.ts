// Stretch, git-backed checkpoints: grades the target's git-checkpoint.ts, a runTask that keeps its
// checkpoint in git.
import type { DeliverableDefinition } from "../../grading/harness.js";
import { gitCommits } from "./commits.js";
import { comparison } from "./comparison.js";
import { gitCrashRecovery } from "./crash-recovery.js";
import { gitCrashSchedules } from "./crash-schedules.js";
import { needsGit } from "./git-setup.js";
import { gitKilledInCommit } from "./killed-in-commit.js";

export const stretchGit: DeliverableDefinition = {
  id: "stretch-git",
  checks: [gitCommits, gitCrashRecovery, gitKilledInCommit, gitCrashSchedules].map(needsGit),
  measurements: [comparison],
};
