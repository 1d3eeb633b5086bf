// The vitest entry that grades concurrency: its checks are in grader/checks/concurrency/, its files and points in grader/rubric.json.
import { afterAll } from "vitest";
import { closeWorlds } from "./concurrency/world-of.js";
import { gradeDeliverable } from "../grading/harness.js";
import { concurrency } from "./concurrency/index.js";

gradeDeliverable(concurrency);
// The writer processes are shared by both checks: they end with the deliverable.
afterAll(closeWorlds);
