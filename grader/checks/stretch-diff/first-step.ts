// stretch-diff.first-step: firstDivergence names exactly the first step where two histories
// differ (null when they do not, key order aside).
import { divergenceCheck } from "./divergence-check.js";

export const firstStep = divergenceCheck("stretch-diff.first-step", "step");
