// The "runs" picture (contract/picture-runs.ts) of a failure of Phase 2, Phase 3 or stretch-git,
// built from the record its story is told from: the side effects each run performed (Done), where
// each crash landed (crash/task-crash.ts), and the step and run the judgement names (its
// RecordWrong or TaskResultWrong). When a piece cannot be read with certainty the builder returns
// null: no picture rather than a wrong one. The folder
// before and after the last crash is the calls picture's (grading/crash-picture.ts), read from the
// same trace and cut the story tells the crash from; on any doubt it is left out.
import { modelAt } from "../../crash/power-loss.js";
import { fileBytes, filesAfter, pictureFile } from "../../grading/crash-picture.js";
import type { Picture } from "../../contract/picture.js";
import type { PictureRun, PictureWrong, RunFolders, RunsPicture } from "../../contract/picture-runs.js";
import type { CrashedRun } from "../../contract/finding.js";
import { placeCrash } from "../../crash/task-crash.js";
import { effectsBefore, type Done, type GradedTask } from "./ledger.js";
import { TASK_CHECKPOINT } from "./task-run.js";
import { killedMark, type WrongMark } from "../../report/task-words.js";

/** One run as the story tells it: its budget, where it was killed, what it printed (a session). */
export interface RunTold {
  budget?: number;
  killed?: PictureRun["killed"];
  printed?: PictureRun["printed"];
}

/**
 * The picture of runs `told` (run 1 first) of `task` whose side effects are `record` (each Done
 * names its run), with what was judged wrong marked (`mark`), if anything. Null when it cannot be drawn.
 */
export function runsPicture(task: GradedTask, unit: RunsPicture["unit"], told: RunTold[], record: Done[], mark?: WrongMark): RunsPicture | null {
  try {
    if (record.some((d) => d.run < 1 || d.run > told.length || d.step < 1 || d.step > task.steps)) return null;
    const wrong = mark && pictureWrong(mark);
    const wrongState = wrong?.step !== undefined && wrong.run !== undefined && mark?.wrongState
      ? record.find((d) => d.step === wrong.step && d.run === wrong.run && d.input !== task.expected.inputs[d.step])
      : undefined;
    const times = new Map<number, number>();
    const runs = told.map((t, i): PictureRun => {
      const cells = record
        .filter((d) => d.run === i + 1)
        .map((d) => {
          times.set(d.step, (times.get(d.step) ?? 0) + 1);
          return { step: d.step, time: times.get(d.step)!, ...(d === wrongState ? { wrongState: true } : {}) };
        });
      return { ...(t.budget === undefined ? {} : { budget: t.budget }), cells, ...(t.killed ? { killed: t.killed } : {}), ...(t.printed ? { printed: t.printed } : {}) };
    });
    if (wrong?.run !== undefined && wrong.run > runs.length) return null;
    return { kind: "runs", unit, steps: task.steps, runs, ...(wrong ? { wrong } : {}) };
  } catch {
    // The story is the verdict; a picture that cannot be drawn is left out, never the failure's cause.
    return null;
  }
}

/**
 * The picture of a chain of crashed runs (a TaskCrashes setting) and the last run after them, which
 * performed `lastEffects` and was judged wrong as `mark` says; `checkpoint` is the path the runs
 * were given, for the folders.
 */
export function crashRunsPicture(task: GradedTask, crashes: CrashedRun[], lastEffects: Done[], mark: WrongMark, { checkpoint = TASK_CHECKPOINT }: { checkpoint?: { $path: string } } = {}): Picture | null {
  try {
    const told: RunTold[] = crashes.map((c) => ({ ...(c.budget === undefined ? {} : { budget: c.budget }), ...(c.paused ? {} : { killed: killedMark(placeCrash(c.run.trace, c.cut.at, c.run)) }) }));
    told.push({});
    const picture = runsPicture(task, "run", told, [...effectsBefore(crashes), ...lastEffects], mark);
    const folders = picture && crashFolders(crashes, `@/${checkpoint.$path}`);
    return picture && folders ? { ...picture, folders } : picture;
  } catch {
    return null;
  }
}

/**
 * The folder when the last crash's run started and right after the crash (a torn write's bytes
 * cut where the crash cut it), each file said to hold the checkpoint `stored` ("@/work/x.json") as
 * the run found it ("old"), as the uncut run left it ("new"), a beginning of either or of what the
 * cut write was writing ("torn"), or else.
 * Only for a single crash: a later run's trace starts on the disk the crashes before it left,
 * which it does not hold. Undefined when it cannot be read for sure.
 */
export function crashFolders(crashes: CrashedRun[], stored: string): RunFolders | undefined {
  try {
    if (crashes.length !== 1) return undefined;
    const { run, cut } = crashes[0]!;
    const end = run.trace.entries.length;
    if (run.trace.truncated || cut.at < run.start || cut.at > end || (cut.bytes !== undefined && run.trace.entries[cut.at]?.kind !== "write")) return undefined;
    const old = fileBytes(modelAt(run.trace, { at: run.start }), stored);
    const next = fileBytes(modelAt(run.trace, { at: end }), stored);
    const file = ([name, data]: [string, Buffer]) => pictureFile(name, data, { old, next });
    // A write the crash cut short tore its file, whichever step's state it was writing: the rest of the write is what never reached it.
    const whole = cut.bytes === undefined ? new Map<string, Buffer>() : new Map(filesAfter(run.trace, { at: cut.at + 1 }));
    const after = filesAfter(run.trace, cut).map(([name, data]) => {
      const rest = whole.get(name);
      return data.length > 0 && rest && rest.length > data.length && rest.subarray(0, data.length).equals(data) ? pictureFile(name, data, { next: rest }) : file([name, data]);
    });
    return { run: 1, before: filesAfter(run.trace, { at: run.start }).map(file), after };
  } catch {
    // The folders are the picture's extra: they are left out, never the picture or the verdict.
    return undefined;
  }
}

/** The picture's own record of what is wrong: the step, the run, the words, whether it ran too often. */
function pictureWrong({ step, run, says, ranAgain }: WrongMark): PictureWrong {
  return { ...(step !== undefined ? { step } : {}), ...(run !== undefined ? { run } : {}), says, ...(ranAgain ? { ranAgain: true } : {}) };
}
