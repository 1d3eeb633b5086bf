// Beyond the handout, concurrent writers: grades the target's checkpoint.ts with several real
// processes saving the same checkpoint at once, in orders a scheduler chooses (concurrency/).
import { afterAll } from "vitest";
import { gradeDeliverable } from "../grading/harness.js";
import { threeWriters } from "./concurrency/three-writers.js";
import { twoWriters } from "./concurrency/two-writers.js";
import { closeWorlds } from "./concurrency/world-of.js";

gradeDeliverable("concurrency", { main: "checkpoint" }, [twoWriters, threeWriters]);
// The writer processes are shared by both checks: they end with the deliverable.
afterAll(closeWorlds);
