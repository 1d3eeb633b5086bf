// The vitest entry that grades phase2: its checks are in grader/checks/phase2/, its files and points in grader/rubric.json.
import { gradeDeliverable } from "../grading/harness.js";
import { phase2 } from "./phase2/index.js";

gradeDeliverable(phase2);
