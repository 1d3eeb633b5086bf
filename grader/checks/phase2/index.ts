// Phase 2, crash recovery: grades the target's runner.ts (with its checkpoint.ts, or the grader's stand-in for it).
import type { DeliverableDefinition } from "../../grading/harness.js";
import { boundaryCrash } from "./boundary-crash.js";
import { completeRun } from "./complete-run.js";
import { crashAnywhere } from "./crash-anywhere.js";
import { crashSchedules } from "./crash-schedules.js";
import { finished } from "./finished.js";
import { killedAtStep6 } from "./killed-at-step-6.js";
import { maxSteps } from "./max-steps.js";

export const phase2: DeliverableDefinition = {
  id: "phase2",
  checks: [completeRun, finished, maxSteps, boundaryCrash, crashAnywhere, crashSchedules, killedAtStep6],
};
