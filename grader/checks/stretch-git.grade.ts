// Stretch, git-backed checkpoints: grades the target's git-checkpoint.ts, a runTask that keeps its
// checkpoint in git (see checks/stretch-git/).
import { gradeDeliverable } from "../grading/harness.js";
import { gitCommits } from "./stretch-git/commits.js";
import { comparison } from "./stretch-git/comparison.js";
import { gitCrashRecovery } from "./stretch-git/crash-recovery.js";
import { gitCrashSchedules } from "./stretch-git/crash-schedules.js";
import { needsGit } from "./stretch-git/git-setup.js";
import { gitKilledInCommit } from "./stretch-git/killed-in-commit.js";

gradeDeliverable("stretch-git", { main: "git-checkpoint" }, [gitCommits, gitCrashRecovery, gitKilledInCommit, gitCrashSchedules].map(needsGit), [comparison]);
