// Beyond the handout, a disk that says no: grades the target's checkpoint.ts under short writes,
// a full disk and failed fsyncs (sandbox/disk-faults.ts makes them).
import type { DeliverableDefinition } from "../../grading/harness.js";
import { diskFull } from "./disk-full.js";
import { failedFsync } from "./failed-fsync.js";
import { shortWrites } from "./short-writes.js";

export const diskFaults: DeliverableDefinition = {
  id: "disk-faults",
  checks: [shortWrites, diskFull, failedFsync],
};
