// disk-faults.failed-fsync: an fsync of atomicCheckpoint fails with EIO. A failed fsync made nothing
// durable, and what it was to write may never reach the disk, even if a later fsync succeeds; so the
// call must throw (or save the state again by other means), the old state must still load, and the
// next atomicCheckpoint must work.
import type { CheckDefinition } from "../../grading/harness.js";
import { checkFaults, pointsOf, type FaultKind } from "./fault-cases.js";

/** The faults this check makes, and how it words what it found. */
export const FAILED_FSYNC: FaultKind = {
  faults: (points) => pointsOf(points, "fsync").map((p) => ({ kind: "failed-fsync" as const, index: p.index })),
  eventually: true,
  // Only the target's own calls through fs are made to fail: an fsync a program makes for it (`sync`) is not.
  nonePassed: "atomicCheckpoint made no fsync call of its own (through fs), so there was none to fail; an fsync a program makes for it, such as `sync`, is not made to fail. The power-loss checks are where a missing fsync costs points.",
  hint: "After a failed fsync the bytes it was to write may be gone for good, even if a second fsync says it worked: what can the call still promise its caller?",
};

export const failedFsync: CheckDefinition = {
  id: "disk-faults.failed-fsync",
  run: (ctx) => checkFaults(ctx, FAILED_FSYNC),
};
