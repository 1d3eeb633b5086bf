// The vitest entry that grades disk-faults: its checks are in grader/checks/disk-faults/, its files and points in grader/rubric.json.
import { gradeDeliverable } from "../grading/harness.js";
import { diskFaults } from "./disk-faults/index.js";

gradeDeliverable(diskFaults);
