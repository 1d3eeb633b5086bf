// Stretch, session diffing: grades the target's diff.ts (with its checkpoint.ts and runner.ts, or
// the reference's, should it use them).
import type { DeliverableDefinition } from "../../grading/harness.js";
import { firstStep } from "./first-step.js";
import { paths } from "./paths.js";
import { twoPrompts } from "./two-prompts.js";

export const stretchDiff: DeliverableDefinition = {
  id: "stretch-diff",
  checks: [firstStep, paths, twoPrompts],
};
