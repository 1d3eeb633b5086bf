// Beyond the handout, a disk that says no: grades the target's checkpoint.ts under short writes,
// a full disk and failed fsyncs (sandbox/interposition/disk-faults.ts makes them).
import { gradeDeliverable } from "../grading/harness.js";
import { diskFull } from "./disk-faults/disk-full.js";
import { failedFsync } from "./disk-faults/failed-fsync.js";
import { shortWrites } from "./disk-faults/short-writes.js";

gradeDeliverable("disk-faults", { main: "checkpoint" }, [shortWrites, diskFull, failedFsync]);
