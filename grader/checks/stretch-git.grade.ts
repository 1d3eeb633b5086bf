// The vitest entry that grades stretch-git: its checks are in grader/checks/stretch-git/, its files and points in grader/rubric.json.
import { gradeDeliverable } from "../grading/harness.js";
import { stretchGit } from "./stretch-git/index.js";

gradeDeliverable(stretchGit);
