// The picture of a disk-fault failure (contract/picture.ts, kind "calls"): the faulted
// atomicCheckpoint's file-system calls, the one the disk said no to marked, and the folder after
// the call, drawn from the run whose disk the story lists (grading/crash-picture.ts, faultPicture).
import { findMark } from "../../crash/cuts.js";
import { faultPicture } from "../../grading/crash-picture.js";
import type { RunReply } from "../../sandbox/messages/host.js";
import type { Fault } from "../../sandbox/messages/scenario.js";
import type { Picture } from "../../contract/picture.js";

/** What the story of one fault was told from: the faulted run (recorded, its disk listed) and the same call on a disk that said yes. */
export interface FaultRuns {
  /** The faulted run: its trace, its disk after the call and its fault report. */
  faulted: RunReply;
  /** The same steps with no fault, recorded: what the call saves there is the new state. */
  unfaulted: RunReply;
  /** How many calls of atomicCheckpoint came before the faulted one (the old state's). */
  callsBefore: number;
  fault: Fault;
  /** The call as the story names it: "atomicCheckpoint(path, {\"step\":2})". */
  call: string;
}

/** The picture of the faulted call, or null when the runs cannot say for sure what it was. */
export function faultedCallPicture(runs: FaultRuns): Picture | null {
  try {
    const { faulted, unfaulted } = runs;
    if (!faulted.trace || !faulted.disk || !faulted.faults || !unfaulted.trace || faulted.trace.truncated) return null;
    if (unfaulted.results.at(-1)?.status !== "returned") return null;
    return faultPicture({
      trace: faulted.trace,
      windowStart: nthCall(faulted.trace, runs.callsBefore),
      call: runs.call,
      checkpoint: "@/work/checkpoint.json",
      disk: faulted.disk,
      fault: runs.fault,
      points: faulted.faults.points,
      unfaulted: { trace: unfaulted.trace, windowStart: nthCall(unfaulted.trace, runs.callsBefore) },
    });
  } catch {
    // The story is the verdict; a picture the model cannot draw is left out, never the failure's cause.
    return null;
  }
}

/** Where the `n`-th (from 0) call of atomicCheckpoint begins: one past its start mark. */
function nthCall(trace: NonNullable<RunReply["trace"]>, n: number): number {
  let at = 0;
  for (let k = 0; k <= n; k++) {
    at = findMark(trace, "call:atomicCheckpoint", at);
    if (at === -1) throw new Error(`no call ${n + 1} of atomicCheckpoint in the trace`);
  }
  return at;
}
