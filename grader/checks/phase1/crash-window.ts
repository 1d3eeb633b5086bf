// The recording both crash checks start from: an old checkpoint (or none), then one
// atomicCheckpoint call whose every crash state the checks rebuild.
import { crashCuts, findMark } from "../../crash/cuts.js";
import { describeCut, describeDisk } from "../../crash/describe.js";
import type { Cut, Trace } from "../../crash/model.js";
import { absentOutcome, checkWrite, noCheckpoint, write, type Expected } from "../../grading/calls.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { recordLimitsText } from "../../sandbox/interposition/recorder.js";
import { LARGE_STATE_CUTS, showState, type JsonState } from "../../grading/states.js";
import { crashPicture } from "../../grading/crash-picture.js";
import type { DiskEntry } from "../../crash/model.js";
import type { Picture } from "../../contract/picture.js";

/** The old state, or NONE when no checkpoint exists before the write. */
export const NONE = Symbol("no checkpoint");
export type OldState = JsonState | typeof NONE;

export interface CrashWindow {
  traceId: string;
  trace: Trace;
  cuts: Cut[];
  start: number;
  /** What a load may return after a crash inside the write. */
  allowed: Expected[];
  /** "With the old checkpoint X on disk, atomicCheckpoint(path, Y) was ..." */
  setting: string;
  /** "atomicCheckpoint(path, Y)", the call a picture of its crash is headed with. */
  call: string;
}

/** How a state of a few MiB is recorded: crashed at LARGE_STATE_CUTS points at most, and untold when its write makes more calls than the grader records. */
export const LARGE_WINDOW = { maxCuts: LARGE_STATE_CUTS, beyondRecord: "untold" } as const;

/**
 * Records `atomicCheckpoint(next)` over `old`; returns its crash window, or why it could not. With
 * `maxCuts`, the crash points inside writes are thinned to keep at most that many (every change to
 * the disk stays). With `beyondRecord: "untold"`, a write of more calls than the grader records
 * gives null, not a failure: a state of a few MiB written a few bytes at a time is slow, not wrong.
 */
export async function recordWindow(box: Sandbox, old: OldState, next: JsonState, fractions?: number[], options?: { maxCuts?: number }): Promise<CrashWindow | string>;
export async function recordWindow(box: Sandbox, old: OldState, next: JsonState, fractions: number[], options: { maxCuts?: number; beyondRecord: "untold" }): Promise<CrashWindow | string | null>;
export async function recordWindow(box: Sandbox, old: OldState, next: JsonState, fractions: number[] = [], { maxCuts, beyondRecord }: { maxCuts?: number; beyondRecord?: "untold" } = {}): Promise<CrashWindow | string | null> {
  const steps = old === NONE ? [write(next)] : [write(old), write(next)];
  const run = await box.run("checkpoint", { steps }, { record: true });
  for (const [i, r] of run.results.entries()) {
    const problem = checkWrite(r, i === run.results.length - 1 ? next : old);
    if (problem) return problem;
  }
  const trace = run.trace!;
  if (trace.truncated && beyondRecord === "untold") return null;
  if (trace.truncated) return `atomicCheckpoint made more file-system calls than the grader records (${recordLimitsText()})`;
  let start = findMark(trace, "call:atomicCheckpoint");
  if (old !== NONE) start = findMark(trace, "call:atomicCheckpoint", start);
  // No checkpoint is whatever this load says where nothing was written: phase1.absent charges it when that is not null.
  const allowed = old === NONE
    ? [noCheckpoint(await absentOutcome(box)), { label: "the new state", state: next }]
    : [{ label: "the old state", state: old }, { label: "the new state", state: next }];
  const setting = old === NONE
    ? `With no checkpoint on disk, atomicCheckpoint(path, ${showState(next, 80)}) was`
    : `With the old checkpoint ${showState(old, 80)} on disk, atomicCheckpoint(path, ${showState(next, 80)}) was`;
  const call = `atomicCheckpoint(path, ${showState(next, 80)})`;
  return { traceId: run.traceId!, trace, cuts: crashCuts(trace, start, trace.entries.length, fractions, maxCuts), start, allowed, setting, call };
}

/**
 * Tells the story of one crash state: where the crash landed and what was on disk after it; with
 * `draw`, also draws its picture (the calls, the crash among them, the files it left).
 */
export async function crashStory(box: Sandbox, w: CrashWindow, cut: Cut, opts: { draw?: (picture: () => Picture | null) => void } = {}): Promise<string> {
  const state = await box.run("checkpoint", { from: [{ traceId: w.traceId, cut }], steps: [] }, { listDisk: true });
  opts.draw?.(() => windowPicture(w, cut, state.disk!));
  return `${w.setting} ${describeCut(w.trace, cut, w.start, { call: "atomicCheckpoint" })}.\nOn disk after the crash: ${describeDisk(state.disk!)}.`;
}

/** The picture of a crash at `cut` in the window `w`, checked against the listing `disk` of what it left. */
export function windowPicture(w: CrashWindow, cut: Cut, disk: DiskEntry[]): Picture | null {
  try {
    return crashPicture({ trace: w.trace, cut, windowStart: w.start, call: w.call, checkpoint: "@/work/checkpoint.json", disk });
  } catch {
    // The story is the verdict; a picture the model cannot draw is left out, never the failure's cause.
    return null;
  }
}

/** The simulated process id of the instance that made the last call in the trace: a restart may get the same one, as a container's PID 1 does. */
export function crashedPid(trace: Trace): number | undefined {
  for (let i = trace.entries.length - 1; i >= 0; i--) {
    const e = trace.entries[i]!;
    if (e.kind === "mark" && e.label.startsWith("pid:")) return Number(e.label.slice(4));
  }
  return undefined;
}
