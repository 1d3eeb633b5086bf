// Phase 1, atomic checkpoint: grades the target's checkpoint.ts.
import { gradeDeliverable } from "../grading/harness.js";
import { absent } from "./phase1/absent.js";
import { crashSafety } from "./phase1/crash-safety.js";
import { killedProcess } from "./phase1/killed-process.js";
import { roundTrip } from "./phase1/round-trip.js";
import { staleTemp } from "./phase1/stale-temp.js";

gradeDeliverable("phase1", { main: "checkpoint" }, [roundTrip, absent, crashSafety, staleTemp, killedProcess]);
