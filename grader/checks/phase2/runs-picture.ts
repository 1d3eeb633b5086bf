// The "runs" picture (contract/picture-runs.ts) of a failure of Phase 2, Phase 3 or stretch-git,
// built from the record its story is told from: the side effects each run performed (Done), where
// each crash landed in the story's own words (locateCrash), and the judge's complaint, read back
// from the story's text so the picture names the step the story names. When a piece cannot be
// read with certainty the builder returns null: no picture rather than a wrong one. The folder
// before and after the last crash is the calls picture's (grading/crash-picture.ts), read from the
// same trace and cut the story tells the crash from; on any doubt it is left out.
import { modelAt } from "../../crash/power-loss.js";
import { fileBytes, filesAfter, pictureFile } from "../../grading/crash-picture.js";
import type { Picture } from "../../contract/picture.js";
import type { PictureRun, PictureWrong, RunFolders, RunsPicture } from "../../contract/picture-runs.js";
import type { Cut, Trace } from "../../crash/model.js";
import { doneEffects, locateCrash, type Done, type GradedTask } from "./ledger.js";
import { TASK_CHECKPOINT } from "./task-run.js";
import type { JudgedPlace } from "../../grading/told.js";

/** A crashed run as the picture needs it (crash-recovery.ts's Crash is one): its trace, where its call started, the cut, its budget, and whether it paused instead. */
export interface CrashedRun {
  run: { trace: Trace; start: number; checkpointRepo?: string };
  cut: Cut;
  budget?: number;
  paused?: true;
}

/** One run as the story tells it: its budget, where it was killed, what it printed (a session). */
export interface RunTold {
  budget?: number;
  killed?: PictureRun["killed"];
  printed?: PictureRun["printed"];
}

/**
 * The picture of runs `told` (run 1 first) of `task` whose side effects are `record` (each Done
 * names its run), judged with `problem` (the judge's words in the story, or null) at `place` (the
 * step and run the judge named, as told.ts keeps it). Null when it cannot be drawn.
 */
export function runsPicture(task: GradedTask, unit: RunsPicture["unit"], told: RunTold[], record: Done[], problem: string | null, place?: JudgedPlace): RunsPicture | null {
  try {
    if (record.some((d) => d.run < 1 || d.run > told.length || d.step < 1 || d.step > task.steps)) return null;
    const wrong = problem === null ? undefined : wrongAt(problem, place);
    const wrongState = wrong?.step !== undefined && wrong.run !== undefined && place?.wrongState
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
 * The picture of a chain of crashed runs (crash-recovery.ts: crashStory) and the last run after
 * them, which performed `lastEffects` and was judged with `problem` at `place`; `checkpoint` is
 * the path the runs were given, for the folders.
 */
export function crashRunsPicture(task: GradedTask, crashes: CrashedRun[], lastEffects: Done[], problem: string, { checkpoint = TASK_CHECKPOINT, place }: { checkpoint?: { $path: string }; place?: JudgedPlace } = {}): Picture | null {
  try {
    const told: RunTold[] = crashes.map((c) => ({ ...(c.budget === undefined ? {} : { budget: c.budget }), ...(c.paused ? {} : { killed: locateCrash(c.run.trace, c.cut.at, c.run).killed }) }));
    told.push({});
    const before = crashes.flatMap((c, i) => doneEffects(c.run.trace.entries.slice(0, c.cut.at), i + 1));
    const picture = runsPicture(task, "run", told, [...before, ...lastEffects], problem, place);
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

/**
 * What the picture marks wrong: the step and run the judge named (`place`), in the place's words;
 * the whole of `problem` when the judge told no place (a story told outside a check's record).
 */
function wrongAt(problem: string, place: JudgedPlace | undefined): PictureWrong {
  return {
    ...(place?.step !== undefined ? { step: place.step } : {}),
    ...(place?.run !== undefined ? { run: place.run } : {}),
    says: place?.says ?? problem,
    ...(place?.ranAgain ? { ranAgain: true } : {}),
  };
}
