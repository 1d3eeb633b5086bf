// disk-faults.short-writes: any write of atomicCheckpoint may write only a prefix and return its
// length, as POSIX allows; the checkpoint must still load as the saved state, or the call must throw.
import type { CheckDefinition } from "../../grading/harness.js";
import { byteCounts, checkFaults, pointsOf, type FaultKind } from "./fault-cases.js";

/** The faults this check makes, and how it words what it found. */
export const SHORT_WRITES: FaultKind = {
  faults: (points, fractions) =>
    pointsOf(points, "write").flatMap((p) => byteCounts(p.bytes!, fractions, { withZero: false }).map((bytes) => ({ kind: "short-write" as const, index: p.index, bytes }))),
  nonePassed: "atomicCheckpoint made no write of 2 bytes or more: there was no write to cut short.",
  hint: "A write may write fewer bytes than it was given and say so in what it returns: what is done with the rest?",
};

export const shortWrites: CheckDefinition = {
  id: "disk-faults.short-writes",
  run: (ctx) => checkFaults(ctx, SHORT_WRITES),
};
