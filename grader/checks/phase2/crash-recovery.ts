// What the Phase 2 crash checks share: a recorded crash-free run, the crash points in it, and
// the judgement of a chain of crashes and the recovery after it.
import { byTime, crashCuts, findMark } from "../../crash/cuts.js";
import type { Cut, Trace } from "../../crash/model.js";
import { crashWindow, placeCrash } from "../../crash/task-crash.js";
import { judgedPlace } from "../../grading/told.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { recordLimitsText } from "../../sandbox/interposition/recorder.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import type { CrashPoint } from "../../sandbox/messages/host.js";
import type { AfterCrashes, CallWrong, CrashedRun, Failure, RecordWrong, TaskCrashes, TaskResultWrong, TooManyCalls } from "../../contract/finding.js";
import type { GitHistory } from "../../sandbox/git/git-history.js";
import { doneEffects, effectsBefore, recordWrong, type Done, type GradedTask } from "./ledger.js";
import { FILE_SETUP, runResultWrong, runTaskStep, unreturnedRun, type TaskSetup } from "./task-run.js";
import type { Picture } from "../../contract/picture.js";
import { crashRunsPicture } from "./runs-picture.js";
import { afterCrashesWords, taskCrashesWords, taskWrongMark, type WrongMark } from "../../report/task-words.js";

export interface RecordedRun {
  traceId: string;
  trace: Trace;
  /** Where the runTask call starts in the trace. */
  start: number;
  /** The folder of the repository whose commit is each step's checkpoint (the git setup's inspectGit), if any. */
  checkpointRepo?: string;
}

/** A run that could not be recorded to be crashed: its runTask call did not return, or made more file-system calls than the grader records. */
export interface UnrecordedRun {
  failed: CallWrong | TooManyCalls;
}

/** Records one runTask call (to completion, or `maxSteps` steps) over the disk `from` left (empty folders when none), with what it returned. */
export async function recordRun(box: Sandbox, from: CrashPoint[] = [], maxSteps?: number, setup = FILE_SETUP): Promise<(RecordedRun & { result: CallResult }) | UnrecordedRun> {
  const run = await box.run(setup.module, { from, steps: [runTaskStep(maxSteps, setup.checkpoint)] }, { record: true });
  const r = run.results[0]!;
  if (r.status !== "returned") return { failed: { kind: "call", call: { fn: "runTask", shown: "runTask", result: r } } };
  if (run.trace!.truncated) return { failed: { kind: "too-many-calls", fn: "runTask", limits: recordLimitsText() } };
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

/** One crash in a chain of runs (a TaskCrashes setting's), its run as recorded. */
export interface Crash extends CrashedRun {
  run: RecordedRun;
}

/**
 * Judges the record after `crashes` and a last run that returned `final` with `lastEffects`:
 * every step ran on the right state, none more often than the crashes allow, and the last run is
 * done. A last run that did not return is told first, with the steps the record then holds.
 */
export function judgeRecovery(task: GradedTask, crashes: Crash[], final: CallResult, lastEffects: Done[]): RecordWrong | TaskResultWrong | null {
  const done = [...effectsBefore(crashes), ...lastEffects];
  const unreturned = unreturnedRun(task, final, done);
  if (unreturned) return unreturned;
  const extra: number[] = [];
  for (const c of crashes) {
    const window = crashWindow(placeCrash(c.run.trace, c.cut.at, c.run));
    if (window > 0) extra[window] = (extra[window] ?? 0) + 1;
  }
  return recordWrong(task, done, extra) ?? runResultWrong(task, final, task.steps);
}

/** The run to the end after a chain of crashes: its number, whether the story calls it a new process, what it returned, its side effects, and its repository (a git-backed runner's). */
export interface LastRun {
  run: number;
  newProcess: boolean;
  result: CallResult;
  effects: Done[];
  git?: GitHistory;
}

/**
 * The failure of the `last` run after `crashes` (judgeRecovery's, then, for a git-backed runner,
 * its repository's), with its picture said to `draw`; null when the task recovered.
 */
export function recoveryFailure(task: GradedTask, crashes: Crash[], last: LastRun, { setup, draw }: { setup: TaskSetup; draw?: (picture: () => Picture | null) => void }): Failure | null {
  const setting: TaskCrashes = { kind: "task-crashes", crashes };
  const when: AfterCrashes = { kind: "after-crashes", run: last.run, newProcess: last.newProcess };
  const wrong = judgeRecovery(task, crashes, last.result, last.effects);
  const picture = (mark: WrongMark) => draw?.(() => crashRunsPicture(task, crashes, last.effects, mark, { checkpoint: setup.checkpoint }));
  if (wrong) {
    picture(taskWrongMark(wrong));
    return { setting, when, wrong };
  }
  // A git-backed runner's repository is still judged in words (checks/stretch-git/git-setup.ts).
  const problem = setup.judgeRepo?.(last.git, task.steps) ?? null;
  if (problem === null) return null;
  picture(judgedPlace() ?? { says: problem });
  return `${taskCrashesWords(setting)}\n${afterCrashesWords(when)}: ${problem}.`;
}

/**
 * A run that takes up a task an earlier run paused, killed at each crash point of its first two
 * steps' worth, then one new run to the end: a runner may clear its paused mark, or otherwise
 * save, before it runs a step, and no other crash check kills a resumed run. The first story
 * that fails, or null; null too when the two runs do not pause and resume cleanly
 * (phase2.max-steps judges that, and it is not charged twice).
 */
export async function recoverFromEachAfterPause(task: GradedTask, box: Sandbox, draw?: (picture: () => Picture | null) => void): Promise<Failure | null> {
  const budget = task.sessions[0]!;
  const paused = await recordRun(box, [], budget);
  if ("failed" in paused || runResultWrong(task, paused.result, budget) !== null) return null;
  const pause: Crash = { run: paused, cut: { at: paused.trace.entries.length }, budget, paused: true };
  const resumed = await recordRun(box, [{ traceId: paused.traceId, cut: pause.cut }]);
  if ("failed" in resumed || judgeRecovery(task, [pause], resumed.result, doneEffects(resumed.trace.entries, 2)) !== null) return null;
  // Up to the boundary before its third step (its end, when it runs fewer).
  const enters = resumed.trace.entries.flatMap((e, i) => (e.kind === "effect" && e.phase === "enter" ? [i] : []));
  return recoverFromEach(task, box, resumed, allCuts(resumed).filter((c) => c.at <= (enters[2] ?? Infinity)), { earlier: [pause], draw });
}

/**
 * Recovers from each crash point of `run` with one new run to the end; the first story that fails,
 * or null. `run` started where the `earlier` runs left the disk (none: on empty folders). With
 * `draw`, also says how to draw that story's picture (the runs, step by step).
 */
export async function recoverFromEach(task: GradedTask, box: Sandbox, run: RecordedRun, cuts: Cut[], { setup = FILE_SETUP, earlier = [], draw }: { setup?: TaskSetup; earlier?: Crash[]; draw?: (picture: () => Picture | null) => void } = {}): Promise<Failure | null> {
  const base = earlier.map((c) => ({ traceId: c.run.traceId, cut: c.cut }));
  const outcomes = await box.runMany(setup.module, run.traceId, cuts, [runTaskStep(undefined, setup.checkpoint)], { base, inspectGit: setup.inspectGit });
  const lastRun = earlier.length + 2;
  for (const [i, o] of outcomes.entries()) {
    const crashes = [...earlier, { run, cut: cuts[i]! }];
    const last = { run: lastRun, newProcess: true, result: o.results[0]!, effects: doneEffects(o.effects, lastRun), git: o.git };
    const failure = recoveryFailure(task, crashes, last, { setup, draw });
    if (failure) return failure;
  }
  return null;
}
