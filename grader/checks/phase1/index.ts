// Phase 1, atomic checkpoint: grades the target's checkpoint.ts.
import type { DeliverableDefinition } from "../../grading/harness.js";
import { absent } from "./absent.js";
import { crashSafety } from "./crash-safety.js";
import { crashSchedules } from "./crash-schedules.js";
import { killedProcess } from "./killed-process.js";
import { roundTrip } from "./round-trip.js";
import { staleTemp } from "./stale-temp.js";

export const phase1: DeliverableDefinition = {
  id: "phase1",
  checks: [roundTrip, absent, crashSafety, staleTemp, crashSchedules, killedProcess],
};
