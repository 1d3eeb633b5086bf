// Beyond the handout, durable across a power cut: grades the target's checkpoint.ts under the
// power-loss model (crash/power-loss.ts).
import { gradeDeliverable } from "../grading/harness.js";
import { durable } from "./power-loss/durable.js";
import { neverTorn } from "./power-loss/never-torn.js";

gradeDeliverable("power-loss", { main: "checkpoint" }, [neverTorn, durable]);
