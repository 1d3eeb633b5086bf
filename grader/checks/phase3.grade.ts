// The vitest entry that grades phase3: its checks are in grader/checks/phase3/, its files and points in grader/rubric.json.
import { gradeDeliverable } from "../grading/harness.js";
import { phase3 } from "./phase3/index.js";

gradeDeliverable(phase3);
