// The recording both crash checks start from: an old checkpoint (or none), then one
// atomicCheckpoint call whose every crash state the checks rebuild.
import { crashCuts, findMark } from "../../crash/cuts.js";
import type { Cut, Trace } from "../../crash/model.js";
import { absentOutcome, checkWrite, noCheckpoint, write, type Expected } from "../../grading/calls.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { recordLimitsText } from "../../sandbox/interposition/recorder.js";
import fc from "fast-check";
import type { CheckContext } from "../../grading/context.js";
import { findCounterexample, type Counterexample } from "../../grading/property.js";
import { LARGE_STATE_BYTES, LARGE_STATE_CUTS, showState, type JsonState } from "../../grading/states.js";
import { crashPicture } from "../../grading/crash-picture.js";
import type { DiskEntry } from "../../crash/model.js";
import type { Picture } from "../../contract/picture.js";
import type { CrashInCall, Failure } from "../../contract/finding.js";

/** The old state, or NONE when no checkpoint exists before the write. */
export const NONE = Symbol("no checkpoint");
export type OldState = JsonState | typeof NONE;

export interface CrashWindow {
  traceId: string;
  trace: Trace;
  cuts: Cut[];
  start: number;
  /** The state the recorded call wrote. */
  next: JsonState;
  /** What a load may return after a crash inside the write. */
  allowed: Expected[];
  /** The most crash points kept inside its writes, when it was thinned (recordWindow's `maxCuts`). */
  maxCuts?: number;
  /** The old checkpoint as shown, null for none. */
  old: string | null;
  /** "atomicCheckpoint(path, Y)", the call a picture of its crash is headed with. */
  call: string;
}

/**
 * Records `atomicCheckpoint(next)` over `old`; returns its crash window, or why it could not. With
 * `maxCuts`, the crash points inside writes are thinned to keep at most that many (every change to
 * the disk stays).
 */
export async function recordWindow(box: Sandbox, old: OldState, next: JsonState, fractions: number[] = [], { maxCuts }: { maxCuts?: number } = {}): Promise<CrashWindow | string> {
  return (await recorded(box, old, next, fractions, maxCuts)) ?? `atomicCheckpoint made more file-system calls than the grader records (${recordLimitsText()})`;
}

/** recordWindow's window, or null when the write made more calls than the grader records. */
async function recorded(box: Sandbox, old: OldState, next: JsonState, fractions: number[], maxCuts: number | undefined): Promise<CrashWindow | string | null> {
  const steps = old === NONE ? [write(next)] : [write(old), write(next)];
  const run = await box.run("checkpoint", { steps }, { record: true });
  for (const [i, r] of run.results.entries()) {
    const problem = checkWrite(r, i === run.results.length - 1 ? next : old);
    if (problem) return problem;
  }
  const trace = run.trace!;
  if (trace.truncated) return null;
  let start = findMark(trace, "call:atomicCheckpoint");
  if (old !== NONE) start = findMark(trace, "call:atomicCheckpoint", start);
  // No checkpoint is whatever this load says where nothing was written: phase1.absent charges it when that is not null.
  const allowed = old === NONE
    ? [noCheckpoint(await absentOutcome(box)), { label: "the new state", state: next }]
    : [{ label: "the old state", state: old }, { label: "the new state", state: next }];
  // The new state's words once: a state of a few MiB is stringified for them.
  const call = `atomicCheckpoint(path, ${showState(next, 80)})`;
  const shownOld = old === NONE ? null : showState(old, 80);
  return { traceId: run.traceId!, trace, cuts: crashCuts(trace, start, trace.entries.length, fractions, maxCuts), start, next, allowed, old: shownOld, call, ...(maxCuts === undefined ? {} : { maxCuts }) };
}

/**
 * `judge` of the recorded `window`, or the check's words for a write it could not record
 * (`couldNot`: "Could not record a write to crash"); null (nothing to judge) for a write of a
 * large state made in more calls than the grader records.
 */
export async function judgeWindow(window: CrashWindow | string | null, couldNot: string, judge: (w: CrashWindow) => Promise<Failure | null>): Promise<Failure | null> {
  if (window === null) return null;
  if (typeof window === "string") return `${couldNot}: ${window}`;
  return judge(window);
}

/**
 * The case a crash check tries once its small states pass, replayed as large/0: over the old
 * state { step: 1 }, a state of a few MiB, as the lab allows. A save may treat large states
 * another way (in place, to spare the disk a copy; unsynced, to save time); apart, so a bug every
 * state shows is told with a small one. Written in small pieces, it is crashed at a sample of
 * LARGE_STATE_CUTS of them, and a write of more calls than the grader records is slow, not
 * wrong: untold. `judge` is the check's own, as for its small states (judgeWindow).
 */
export function largeStateCase(ctx: CheckContext, box: Sandbox, couldNot: string, judge: (w: CrashWindow) => Promise<Failure | null>): Promise<Counterexample<null> | null> {
  const large = async () => judgeWindow(await recorded(box, { step: 1 }, { big: "n".repeat(LARGE_STATE_BYTES) }, [], LARGE_STATE_CUTS), couldNot, judge);
  return findCounterexample(ctx, fc.constant(null), large, { numRuns: 1, part: "large" });
}

/**
 * One crash state, as a finding's setting: where the crash landed and what was on disk after it;
 * with `draw`, also draws its picture (the calls, the crash among them, the files it left).
 */
export async function crashSetting(box: Sandbox, w: CrashWindow, cut: Cut, opts: { draw?: (picture: () => Picture | null) => void } = {}): Promise<CrashInCall> {
  const state = await box.run("checkpoint", { from: [{ traceId: w.traceId, cut }], steps: [] }, { listDisk: true });
  opts.draw?.(() => windowPicture(w, cut, state.disk!));
  return { kind: "crash-in-call", old: w.old, call: w.call, trace: w.trace, cut, start: w.start, disk: state.disk! };
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
