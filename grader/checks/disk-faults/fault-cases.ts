// What the three disk-fault checks share. For an old checkpoint (or none) and a new state, a first
// run counts the fault points of atomicCheckpoint(next): its writes, the files and folders it
// creates, its fsyncs. Then one run per fault the check chooses at those points: the disk says no
// there, and the grader judges what follows from the outside:
// - when atomicCheckpoint returned, the new state must load; when it threw, the old one or the new
//   one (null or the new one when there was none), in the same process and in a new one;
// - the disk is fine again: the next atomicCheckpoint works despite what the failed one left, in
//   a new process and in the one whose call failed;
// - with `eventually` (failed fsyncs), also once the machine has written out all it still can:
//   the bytes and entries a failed fsync lost never reach the disk (crash/power-loss.ts).
import fc from "fast-check";
import { findMark } from "../../crash/cuts.js";
import { absentOutcome, load, loadWrong, noCheckpoint, restart, write, writeWrong, type Expected } from "../../grading/calls.js";
import type { CheckContext } from "../../grading/context.js";
import { findCounterexample } from "../../grading/property.js";
import { fraction, jsonState, showState, type JsonState } from "../../grading/states.js";
import type { Verdict } from "../../contract/verdict.js";
import type { AfterFault, CallWrong, DiskSaidNo, Finding } from "../../contract/finding.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import type { CallResult, Fault, FaultPoint, ScenarioStep } from "../../sandbox/messages/scenario.js";
import type { Picture } from "../../contract/picture.js";
import { NONE, type OldState } from "../phase1/crash-window.js";
import { faultedCallPicture } from "./fault-picture.js";

/** One sample: the checkpoint before (or none), the state saved when the disk says no, the one saved after, and byte fractions. */
export interface FaultSample {
  old: OldState;
  next: JsonState;
  after: JsonState;
  fractions: number[];
}

/** What one disk-fault check is: the faults it makes at a write's fault points, and whether failed fsyncs need the eventual disk. */
export interface FaultKind {
  /** The faults to try, given every fault point atomicCheckpoint(next) met and the sample's byte fractions. */
  faults(points: FaultPoint[], fractions: number[]): Fault[];
  /** Also judge the disk once all that can still reach it has (for failed fsyncs). */
  eventually?: boolean;
  /** Said when no sample met a point this check can fail (a passed check's note). */
  nonePassed: string;
  /** A short hint after a failure: what the student's code must do about this fault. */
  hint: string;
}

/** The most fault points of one kind tried per call: past it, the first, the last and an even spread. */
export const MAX_POINTS = 8;

/** Runs the check over fast-check samples; each failure is found as the fault, what the call did, the disk, and what went wrong, with the check's hint. */
export async function checkFaults(ctx: CheckContext, kind: FaultKind): Promise<Verdict> {
  const box = ctx.sandbox();
  let metPoints = false;
  const found = await findCounterexample(
    ctx,
    fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState(), after: jsonState(), fractions: fc.array(fraction(), { maxLength: 2 }) }),
    async (sample) => {
      const hinted = (finding: Finding): Finding => ({ ...finding, notes: [...(finding.notes ?? []), { kind: "hint", says: kind.hint }] });
      const survey = await box.run("checkpoint", { steps: [...before(sample.old), { faults: {} }, write(sample.next), { faults: "off" }] });
      const wrong = survey.results.map((r, i) => writeWrong(r, i === survey.results.length - 1 ? sample.next : sample.old)).find((w) => w !== null);
      if (wrong) return hinted({ when: { kind: "no-fault" }, wrong });
      const points = survey.faults?.points ?? [];
      const faults = kind.faults(points, sample.fractions);
      if (faults.length > 0) metPoints = true;
      for (const fault of faults) {
        ctx.countCrashStates(1);
        const finding = await runFault(box, sample, fault, points, kind, { draw: (p) => ctx.draw(p) });
        if (finding) return hinted(finding);
      }
      return null;
    },
    {
      numRuns: 15,
      examples: [
        { old: { step: 1 }, next: { step: 2 }, after: { step: 3 }, fractions: [] },
        { old: NONE, next: { step: 1, notes: ["a", "b"] }, after: [1, 2], fractions: [] },
      ],
    },
  );
  if (found) return ctx.failed(found.story, found.path);
  return ctx.passed(metPoints ? undefined : kind.nonePassed);
}

/** Runs one fault and judges what followed it: null when it is right, else what went wrong; with `draw`, also draws its picture (the faulted call's calls, the fault among them, the folder after it). */
export async function runFault(
  box: Sandbox,
  sample: FaultSample,
  fault: Fault,
  points: FaultPoint[],
  kind: FaultKind,
  opts: { draw?: (picture: () => Picture | null) => void } = {},
): Promise<Finding | null> {
  const { old, next, after } = sample;
  const steps: ScenarioStep[] = [...before(old), { faults: { inject: fault } }, write(next), { faults: "off" }, load(), restart, load(), write(after), load(), restart, load()];
  const run = await box.run("checkpoint", { steps }, { record: kind.eventually });
  const r = run.results.slice(before(old).length);
  const [call, sameLoad, newLoad, afterWrite, afterLoad, lastLoad] = r as [CallResult, CallResult, CallResult, CallResult, CallResult, CallResult];
  const allowed = allowedAfter(call, old, next, old === NONE ? await absentOutcome(box) : undefined);
  const found = async (when: AfterFault, wrong: CallWrong): Promise<Finding> => ({ setting: await faultSetting(box, sample, fault, points, call, opts.draw), when, wrong });
  const sameProblem = loadWrong(sameLoad, allowed);
  if (sameProblem) return found({ kind: "after-fault", in: "same-process" }, sameProblem);
  const newProblem = loadWrong(newLoad, allowed);
  if (newProblem) return found({ kind: "after-fault", in: "new-process" }, newProblem);
  if (kind.eventually && run.trace) {
    const start = nthMark(run.trace.entries, "call:atomicCheckpoint", before(old).length);
    const end = findMark(run.trace, `return:atomicCheckpoint`, start);
    const cut = { at: end - 1, power: { data: "kept" as const, names: "kept" as const, settled: start - 1 } };
    const [later] = await box.runMany("checkpoint", run.traceId!, [cut], [load()]);
    const problem = loadWrong(later!.results[0]!, allowed);
    if (problem) {
      const disk = await box.run("checkpoint", { from: [{ traceId: run.traceId!, cut }], steps: [] }, { listDisk: true });
      return found({ kind: "written-out", disk: disk.disk! }, problem);
    }
  }
  const shown = showState(after, 60);
  const fineAgain = (process: "new" | "same", reached: "save" | "load" | "load-in-next"): AfterFault => ({ kind: "disk-fine-again", process, reached, after: shown });
  const saved = writeWrong(afterWrite, after);
  if (saved) return found(fineAgain("new", "save"), saved);
  const reloaded = loadWrong(afterLoad, [{ label: "the state just written", state: after }]);
  if (reloaded) return found(fineAgain("new", "load"), reloaded);
  const last = loadWrong(lastLoad, [{ label: "the state written last", state: after }]);
  if (last) return found(fineAgain("new", "load-in-next"), last);
  // The process whose call failed saves again at once, as a program that catches the error and
  // goes on would: what the failed call left in that process (an open temp file, a name it
  // keeps) must not stop it either.
  const retry = await box.run("checkpoint", { steps: [...before(old), { faults: { inject: fault } }, write(next), { faults: "off" }, write(after), load()] });
  const [, again, againLoad] = retry.results.slice(before(old).length) as [CallResult, CallResult, CallResult];
  const resaved = writeWrong(again, after);
  if (resaved) return found(fineAgain("same", "save"), resaved);
  const loadedAgain = loadWrong(againLoad, [{ label: "the state just written", state: after }]);
  if (loadedAgain) return found(fineAgain("same", "load"), loadedAgain);
  return null;
}

/** What a load may return after the call: the new state when it returned; the old or the new one when it threw (`absent`: a load where nothing was written). */
function allowedAfter(call: CallResult, old: OldState, next: JsonState, absent?: CallResult): Expected[] {
  if (call.status === "returned") return [{ label: "the new state", state: next }];
  return [old === NONE ? noCheckpoint(absent) : { label: "the old state", state: old }, { label: "the new state", state: next }];
}

/**
 * The faulted call as a finding's setting: the old checkpoint, the call, the fault, what the call
 * did and the disk after it; with `draw`, the run whose disk it lists is recorded, and its picture drawn from it.
 */
async function faultSetting(box: Sandbox, sample: FaultSample, fault: Fault, points: FaultPoint[], call: CallResult, draw?: (picture: () => Picture | null) => void): Promise<DiskSaidNo> {
  const { old, next } = sample;
  const disk = await box.run("checkpoint", { steps: [...before(old), { faults: { inject: fault } }, write(next), { faults: "off" }] }, { listDisk: true, record: draw !== undefined });
  const shown = `atomicCheckpoint(path, ${showState(next, 60)})`;
  // The same call on a disk that said yes says which bytes are the new state; if it cannot run, there is no picture, and the story is the same.
  const unfaulted = draw && (await box.run("checkpoint", { steps: [...before(old), write(next)] }, { record: true }).catch(() => null));
  if (draw && unfaulted) {
    const runs = { faulted: disk, unfaulted, callsBefore: before(old).length, fault, call: shown };
    draw(() => faultedCallPicture(runs));
  }
  const on = fault.kind === "failed-fsync" ? "fsync" : fault.kind === "disk-full" && fault.on === "create" ? "create" : "write";
  const ofKind = points.filter((p) => p.on === on);
  const point = ofKind.find((p) => p.index === fault.index)!;
  return { kind: "disk-said-no", old: old === NONE ? null : showState(old, 60), call: shown, fault, point, of: ofKind.length, result: call, disk: disk.disk! };
}

/** The byte counts a fault at a write of `length` bytes tries: the edges, the middle and the sample's fractions. */
export function byteCounts(length: number, fractions: number[], { withZero }: { withZero: boolean }): number[] {
  const counts = new Set([1, Math.floor(length / 2), length - 1, ...fractions.map((f) => Math.floor(f * length))]);
  if (withZero) counts.add(0);
  return [...counts].filter((n) => n >= (withZero ? 0 : 1) && n < length).sort((a, b) => a - b);
}

/** The points of one kind to fail: every one, or the first, the last and an even spread past MAX_POINTS. */
export function pointsOf(points: FaultPoint[], on: FaultPoint["on"]): FaultPoint[] {
  const all = points.filter((p) => p.on === on);
  if (all.length <= MAX_POINTS) return all;
  return Array.from({ length: MAX_POINTS }, (_, k) => all[Math.round((k * (all.length - 1)) / (MAX_POINTS - 1))]!);
}

function before(old: OldState): ScenarioStep[] {
  return old === NONE ? [] : [write(old)];
}

/** One past the `n`-th (from 0) mark `label`. */
function nthMark(entries: { kind: string; label?: string }[], label: string, n: number): number {
  let seen = 0;
  for (let i = 0; i < entries.length; i++) if (entries[i]!.kind === "mark" && entries[i]!.label === label && seen++ === n) return i + 1;
  return -1;
}
