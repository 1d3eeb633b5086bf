// Every deliverable the grader's code defines, by id: what the manifest (grader/rubric.json) is
// checked against, and what the tests and tools list. Each is graded through a vitest entry made
// from its id (cli/deliverable-entry.ts).
import type { DeliverableDefinition } from "../grading/harness.js";
import { concurrency } from "./concurrency/index.js";
import { diskFaults } from "./disk-faults/index.js";
import { phase1 } from "./phase1/index.js";
import { phase2 } from "./phase2/index.js";
import { phase3 } from "./phase3/index.js";
import { powerLoss } from "./power-loss/index.js";
import { stretchDiff } from "./stretch-diff/index.js";
import { stretchGit } from "./stretch-git/index.js";

/** The deliverables, in no particular order: the manifest's order is the report's. */
export const DELIVERABLES: readonly DeliverableDefinition[] = [phase1, phase2, phase3, powerLoss, concurrency, diskFaults, stretchGit, stretchDiff];
