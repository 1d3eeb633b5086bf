// disk-faults.disk-full: the disk fills up in the middle of atomicCheckpoint, at any write (after
// part of it went in) or any new file or folder; from then on every write and creation fails with
// ENOSPC. The call must throw, the old state must still load, and once there is space again the
// next atomicCheckpoint must work whatever the failed one left behind.
import type { CheckDefinition } from "../../grading/harness.js";
import type { Fault } from "../../sandbox/messages/scenario.js";
import { byteCounts, checkFaults, pointsOf, type FaultKind } from "./fault-cases.js";

/** The faults this check makes, and how it words what it found. */
export const DISK_FULL: FaultKind = {
  faults: (points, fractions) => [
    ...pointsOf(points, "create").map((p): Fault => ({ kind: "disk-full", on: "create", index: p.index })),
    ...pointsOf(points, "write").flatMap((p) => byteCounts(p.bytes!, fractions, { withZero: true }).map((bytes): Fault => ({ kind: "disk-full", on: "write", index: p.index, bytes }))),
  ],
  nonePassed: "atomicCheckpoint made no write and created no file: the disk had nothing to fill up.",
  hint: "A full disk fails every write and new file until space is freed: does the caller learn that the state was not saved, and can the next save still succeed?",
};

export const diskFull: CheckDefinition = {
  id: "disk-faults.disk-full",
  run: (ctx) => checkFaults(ctx, DISK_FULL),
};
