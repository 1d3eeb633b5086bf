// The vitest entry that grades power-loss: its checks are in grader/checks/power-loss/, its files and points in grader/rubric.json.
import { gradeDeliverable } from "../grading/harness.js";
import { powerLoss } from "./power-loss/index.js";

gradeDeliverable(powerLoss);
