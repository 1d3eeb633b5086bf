// Stretch, session diffing: grades the target's diff.ts (with its checkpoint.ts and runner.ts, or
// the reference's, should it use them).
import { gradeDeliverable } from "../grading/harness.js";
import { firstStep } from "./stretch-diff/first-step.js";
import { paths } from "./stretch-diff/paths.js";
import { twoPrompts } from "./stretch-diff/two-prompts.js";

gradeDeliverable("stretch-diff", { main: "diff", earlier: ["checkpoint", "runner"] }, [firstStep, paths, twoPrompts]);
