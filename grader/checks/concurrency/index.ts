// Beyond the handout, concurrent writers: grades the target's checkpoint.ts with several real
// processes saving the same checkpoint at once, in orders a scheduler chooses (concurrency/).
// The writer processes are shared by both checks: they end with the deliverable.
import type { DeliverableDefinition } from "../../grading/harness.js";
import { threeWriters } from "./three-writers.js";
import { twoWriters } from "./two-writers.js";

export const concurrency: DeliverableDefinition = {
  id: "concurrency",
  checks: [twoWriters, threeWriters],
};
