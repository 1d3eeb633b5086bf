// Beyond the handout, durable across a power cut: grades the target's checkpoint.ts under the
// power-loss model (crash/power-loss.ts).
import type { DeliverableDefinition } from "../../grading/harness.js";
import { cutWhileRecovering } from "./cut-while-recovering.js";
import { durable } from "./durable.js";
import { neverTorn } from "./never-torn.js";

export const powerLoss: DeliverableDefinition = {
  id: "power-loss",
  checks: [neverTorn, durable, cutWhileRecovering],
};
