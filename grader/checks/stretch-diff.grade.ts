// The vitest entry that grades stretch-diff: its checks are in grader/checks/stretch-diff/, its files and points in grader/rubric.json.
import { gradeDeliverable } from "../grading/harness.js";
import { stretchDiff } from "./stretch-diff/index.js";

gradeDeliverable(stretchDiff);
