// stretch-diff.paths: at the first divergence, firstDivergence lists exactly the smallest paths
// where the two states differ, in any order.
import { divergenceCheck } from "./divergence-check.js";

export const paths = divergenceCheck("stretch-diff.paths", "paths");
