// Phase 2, crash recovery: grades the target's runner.ts (with its checkpoint.ts, or the reference's).
import { gradeDeliverable } from "../grading/harness.js";
import { boundaryCrash } from "./phase2/boundary-crash.js";
import { completeRun } from "./phase2/complete-run.js";
import { crashAnywhere } from "./phase2/crash-anywhere.js";
import { crashSchedules } from "./phase2/crash-schedules.js";
import { finished } from "./phase2/finished.js";
import { killedAtStep6 } from "./phase2/killed-at-step-6.js";
import { maxSteps } from "./phase2/max-steps.js";

gradeDeliverable("phase2", { main: "runner", earlier: ["checkpoint"] }, [completeRun, finished, maxSteps, boundaryCrash, crashAnywhere, crashSchedules, killedAtStep6]);
