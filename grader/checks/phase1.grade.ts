// The vitest entry that grades phase1: its checks are in grader/checks/phase1/, its files and points in grader/rubric.json.
import { gradeDeliverable } from "../grading/harness.js";
import { phase1 } from "./phase1/index.js";

gradeDeliverable(phase1);
