// What the Phase 2 crash checks share: a recorded crash-free run, the crash points in it, and
// the story of a crash and the recovery after it.
import { judgedPlace } from "../../grading/told.js";
import { byTime, crashCuts, findMark } from "../../crash/cuts.js";
import { cutPlace } from "../../crash/describe.js";
import type { Cut, Trace } from "../../crash/model.js";
import { describeResult } from "../../grading/calls.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { recordLimitsText } from "../../sandbox/interposition/recorder.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import type { CrashPoint } from "../../sandbox/messages/host.js";
import { doneEffects, judgeRecord, locateCrash, type Done, type GradedTask } from "./ledger.js";
import { FILE_SETUP, checkRunResult, runTaskStep, type TaskSetup } from "./task-run.js";
import type { Picture } from "../../contract/picture.js";
import { crashRunsPicture } from "./runs-picture.js";
import { heldStepsWords } from "../../report/task-words.js";

export interface RecordedRun {
  traceId: string;
  trace: Trace;
  /** Where the runTask call starts in the trace. */
  start: number;
  /** The folder of the repository whose commit is each step's checkpoint (the git setup's inspectGit), if any. */
  checkpointRepo?: string;
}

/** Records one runTask call (to completion, or `maxSteps` steps) over the disk `from` left (empty folders when none), with what it returned. */
export async function recordRun(box: Sandbox, from: CrashPoint[] = [], maxSteps?: number, setup = FILE_SETUP): Promise<(RecordedRun & { result: CallResult }) | string> {
  const run = await box.run(setup.module, { from, steps: [runTaskStep(maxSteps, setup.checkpoint)] }, { record: true });
  const r = run.results[0]!;
  if (r.status !== "returned") return describeResult("runTask", r);
  if (run.trace!.truncated) return `runTask made more file-system calls than the grader records (${recordLimitsText()})`;
  return { traceId: run.traceId!, trace: run.trace!, start: findMark(run.trace!, "call:runTask"), result: r, ...(setup.inspectGit === undefined ? {} : { checkpointRepo: setup.inspectGit }) };
}

/** The instant before each runStep(s + 1) is called, and before runTask returns: the step boundaries. */
export function boundaryCuts(trace: Trace): Cut[] {
  const cuts: Cut[] = [];
  trace.entries.forEach((e, i) => {
    if ((e.kind === "effect" && e.phase === "enter") || (e.kind === "mark" && e.label === "return:runTask")) cuts.push({ at: i });
  });
  return cuts;
}

/** Every crash point of a run: each change to the disk and each torn write, each boundary, and inside each runStep. */
export function allCuts(run: RecordedRun, fractions: number[] = []): Cut[] {
  const inside: Cut[] = run.trace.entries.flatMap((e, i) => (e.kind === "effect" && e.phase === "done" ? [{ at: i }] : []));
  const cuts = [...crashCuts(run.trace, run.start, run.trace.entries.length, fractions), ...boundaryCuts(run.trace), ...inside];
  const seen = new Set<string>();
  return cuts
    .filter((c) => !seen.has(`${c.at}:${c.bytes}`) && seen.add(`${c.at}:${c.bytes}`))
    .sort(byTime);
}

/** One crash in a chain of runs: where it landed, and which step's window it was in. */
export interface Crash {
  run: RecordedRun;
  cut: Cut;
  /** The run's maxSteps, if it had one. */
  budget?: number;
  /** It was not killed: it ran out of its budget and returned (its cut is its end). */
  paused?: true;
}

/** The side effects a chain of crashed runs performed before each crash, in order. */
export function effectsBefore(crashes: Crash[]): Done[] {
  return crashes.flatMap((c, i) => doneEffects(c.run.trace.entries.slice(0, c.cut.at), i + 1));
}

/**
 * Judges the record after `crashes` and a last run that returned `final` with `lastEffects`:
 * every step ran on the right state, none more often than the crashes allow, and the last run is done.
 */
export function judgeRecovery(task: GradedTask, crashes: Crash[], final: CallResult, lastEffects: Done[]): string | null {
  const extra: number[] = [];
  for (const c of crashes) {
    const { window } = locateCrash(c.run.trace, c.cut.at, c.run);
    if (window > 0) extra[window] = (extra[window] ?? 0) + 1;
  }
  // A last run that threw is the story; then what the record shows; then what the last run returned.
  if (final.status !== "returned") return `${describeResult("runTask", final)} (the record holds ${heldStepsWords([...effectsBefore(crashes), ...lastEffects].map((d) => d.step))})`;
  return judgeRecord(task, [...effectsBefore(crashes), ...lastEffects], extra) ?? checkRunResult(task, final, task.steps);
}

/** "Run 1 was killed at the boundary after step 6 (right after renameSync(...))." for each crash. */
export function crashStory(crashes: Crash[]): string {
  return crashes
    .map((c, i) => {
      const where = locateCrash(c.run.trace, c.cut.at, c.run).words;
      const how = cutPlace(c.run.trace, c.cut, c.run.start);
      const budget = c.budget === undefined ? "" : ` with maxSteps ${c.budget}`;
      if (c.paused) return `Run ${i + 1}${budget} ran ${c.budget} steps and returned paused.`;
      const started = i === 0 ? "" : crashes[i - 1]!.paused ? ` (started on what run ${i} left)` : " (restarted on what the crash left)";
      return `Run ${i + 1}${budget}${started} was killed ${where} (${how}).`;
    })
    .join("\n");
}

/**
 * A run that takes up a task an earlier run paused, killed at each crash point of its first two
 * steps' worth, then one new run to the end: a runner may clear its paused mark, or otherwise
 * save, before it runs a step, and no other crash check kills a resumed run. The first story
 * that fails, or null; null too when the two runs do not pause and resume cleanly
 * (phase2.max-steps judges that, and it is not charged twice).
 */
export async function recoverFromEachAfterPause(task: GradedTask, box: Sandbox, draw?: (picture: () => Picture | null) => void): Promise<string | null> {
  const budget = task.sessions[0]!;
  const paused = await recordRun(box, [], budget);
  if (typeof paused === "string" || checkRunResult(task, paused.result, budget) !== null) return null;
  const pause: Crash = { run: paused, cut: { at: paused.trace.entries.length }, budget, paused: true };
  const resumed = await recordRun(box, [{ traceId: paused.traceId, cut: pause.cut }]);
  if (typeof resumed === "string" || judgeRecovery(task, [pause], resumed.result, doneEffects(resumed.trace.entries, 2)) !== null) return null;
  // Up to the boundary before its third step (its end, when it runs fewer).
  const enters = resumed.trace.entries.flatMap((e, i) => (e.kind === "effect" && e.phase === "enter" ? [i] : []));
  return recoverFromEach(task, box, resumed, allCuts(resumed).filter((c) => c.at <= (enters[2] ?? Infinity)), { earlier: [pause], draw });
}

/**
 * Recovers from each crash point of `run` with one new run to the end; the first story that fails,
 * or null. `run` started where the `earlier` runs left the disk (none: on empty folders). With
 * `draw`, also says how to draw that story's picture (the runs, step by step).
 */
export async function recoverFromEach(task: GradedTask, box: Sandbox, run: RecordedRun, cuts: Cut[], { setup = FILE_SETUP, earlier = [], draw }: { setup?: TaskSetup; earlier?: Crash[]; draw?: (picture: () => Picture | null) => void } = {}): Promise<string | null> {
  const base = earlier.map((c) => ({ traceId: c.run.traceId, cut: c.cut }));
  const outcomes = await box.runMany(setup.module, run.traceId, cuts, [runTaskStep(undefined, setup.checkpoint)], { base, inspectGit: setup.inspectGit });
  const lastRun = earlier.length + 2;
  for (const [i, o] of outcomes.entries()) {
    const crashes = [...earlier, { run, cut: cuts[i]! }];
    const last = doneEffects(o.effects, lastRun);
    const problem = judgeRecovery(task, crashes, o.results[0]!, last) ?? setup.judgeRepo?.(o.git, task.steps) ?? null;
    if (problem) {
      const place = judgedPlace();
      draw?.(() => crashRunsPicture(task, crashes, last, problem, { checkpoint: setup.checkpoint, place }));
      return `${crashStory(crashes)}\nRun ${lastRun}, a new process, then ran runTask to the end: ${problem}.`;
    }
  }
  return null;
}
