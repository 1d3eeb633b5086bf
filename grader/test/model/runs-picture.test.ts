// The "runs" picture (checks/phase2/runs-picture.ts) and its terminal lines
// (contract/picture-lines-runs.ts): built from the record and the judge's words the story is told
// from, it names the step and run the story names, and it fits any terminal, with or without colour.
// Its folders before and after a crash are those the real replay of the crash leaves.
import path from "node:path";
import pc from "picocolors";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import type { Crash } from "../../checks/phase2/crash-recovery.js";
import { gradedTask, judgeRecord, recordWrong, type Done } from "../../checks/phase2/ledger.js";
import { crashFolders, runsPicture } from "../../checks/phase2/runs-picture.js";
import { isWrongCell, type PictureRun } from "../../contract/picture-runs.js";
import { recordWrongWords, taskWrongMark } from "../../report/task-words.js";
import { crashCuts } from "../../crash/cuts.js";
import type { Cut } from "../../crash/model.js";
import { normaliseName } from "../../crash/names.js";
import { replay } from "../../crash/replay.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { listDisk } from "../../sandbox/runtime/disk.js";
import { layScenario, recordingFs, scratchFolder } from "../support/model-fs.js";
import { runsLines } from "../../report/picture-lines-runs.js";
import { runsSvg } from "../../report/html/svg-runs.js";
import type { RunsPicture } from "../../contract/picture-runs.js";
import { DEFAULT_TASK } from "../../rubric-task.js";
import { assertMatchesSchema } from "../../schemas.js";
import { SCHEMA_VERSION } from "../../report/report.js";

const TASK = gradedTask(DEFAULT_TASK);
const EXPECTED = TASK.expected;

/** The record of `steps` run by `run`, each on the state it must start from (or `input`). */
const ran = (run: number, steps: number[], input?: string): Done[] => steps.map((step) => ({ step, run, input: input ?? EXPECTED.inputs[step]! }));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
/** A kill as the runs picture marks it (report/task-words.ts: killedMark). */
const killed = (step: number, at: NonNullable<PictureRun["killed"]>["at"], words: string) => ({ step, at, words });
/** Where the judgement of `record` falls, as a check's picture marks it. */
const judged = (task: typeof TASK, record: Done[], unit: "run" | "session" = "run") => taskWrongMark(recordWrong(task, record, [], unit)!);

/** Skipped step 2 after a kill at the boundary after step 1. */
const skipped = () => {
  const record = [...ran(1, [1]), ...ran(2, range(3, 10))];
  return runsPicture(TASK, "run", [{ budget: 4, killed: killed(1, "after", "at the boundary after step 1") }, {}], record, judged(TASK, record))!;
};
/** Sessions of 4, 4 and 2 that each start again from step 1 (and run on past their budget), the last printing a wrong status. */
const replayedRecord = () => [...ran(1, range(1, 4)), ...ran(2, range(1, 8)), ...ran(3, range(1, 10))];
const replayed = () => {
  const record = replayedRecord();
  const printed = (line: string, wrong = false) => ({ line, ...(wrong ? { wrong } : {}) });
  const told = [{ budget: 4, printed: printed('{"status":"paused","nextStep":5}') }, { budget: 4, printed: printed('{"status":"paused","nextStep":5}') }, { budget: 2, printed: printed('{"status":"paused","nextStep":3}', true) }];
  return runsPicture(TASK, "session", told, record, judged(TASK, record, "session"))!;
};
/** A task of 20 steps whose run 2 skipped step 13 after a kill at the boundary after step 12. */
const TASK_20 = gradedTask({ steps: 20, sessions: [7, 7, 6], killedAtStep: 13 });
const skipped20 = () => {
  const record = [...range(1, 12).map((step) => ({ step, run: 1 })), ...range(14, 20).map((step) => ({ step, run: 2 }))].map((d) => ({ ...d, input: TASK_20.expected.inputs[d.step]! }));
  return runsPicture(TASK_20, "run", [{ killed: killed(12, "after", "at the boundary after step 12") }, {}], record, judged(TASK_20, record))!;
};

describe("the picture of runs of the task", () => {
  test("a step that never ran: the picture names the step the judge names, each run's cells are its steps in the record, and the kill is where placeCrash puts it", () => {
    const picture = skipped();
    expect(picture.wrong).toEqual({ step: 2, says: "step 2 never ran" });
    expect(picture.runs.map((r) => r.cells.map((c) => c.step))).toEqual([[1], range(3, 10)]);
    expect(picture.runs[0]!.killed).toEqual({ step: 1, at: "after", words: "at the boundary after step 1" });
    expect(picture.runs[0]!.budget).toBe(4);
  });

  test("a step run too often: each later run of it counts its time, and the step the judge names is the wrong one", () => {
    const picture = replayed();
    expect(judgeRecord(TASK, replayedRecord(), [], "session")).toMatch(/^step 1 ran 3 times/);
    expect(picture.wrong).toMatchObject({ step: 1, ranAgain: true, says: "step 1 ran 3 times (in sessions 1, 2, 3)" });
    expect(picture.runs[2]!.cells.map((c) => c.time)).toEqual([3, 3, 3, 3, 2, 2, 2, 2, 1, 1]);
    const wrongCells = picture.runs.flatMap((r, i) => r.cells.filter((c) => isWrongCell(picture, c)).map((c) => [i + 1, c.step, c.time]));
    expect(wrongCells).toEqual([[2, 1, 2], [3, 1, 3]]);
    // A report that holds the picture is one the report's schema reads back (read-report.ts).
    const check = { id: "phase3.killed-session", title: "t", status: "failed" as const, points: 0, maxPoints: 5, message: "m", crashStates: 1, picture };
    const report = { schemaVersion: SCHEMA_VERSION, target: "t", seed: 1, score: 0, maxScore: 5, bonus: 0, maxBonus: 0, deliverables: [{ id: "phase3", title: "t", kind: "core", status: "graded", points: 0, maxPoints: 5, checks: [check], crashStates: 1, durationMs: 1 }], stats: { crashStates: 1, durationMs: 1 } };
    expect(() => assertMatchesSchema("report", report, "report")).not.toThrow();
    expect(picture.runs[2]!.printed).toEqual({ line: '{"status":"paused","nextStep":3}', wrong: true });
  });

  test("a step run on a wrong state: that run's cell of it, and only it, is marked", () => {
    const record = [...ran(1, range(1, 3)), ...ran(2, [4], EXPECTED.inputs[2]), ...ran(2, range(5, 10))];
    const picture = runsPicture(TASK, "run", [{ killed: killed(4, "in-step", "inside runStep(4), before its side effect") }, {}], record, judged(TASK, record))!;
    expect(picture.wrong).toMatchObject({ step: 4, run: 2 });
    const marked = picture.runs.flatMap((r, i) => r.cells.filter((c) => c.wrongState).map((c) => [i + 1, c.step]));
    expect(marked).toEqual([[2, 4]]);
  });

  test("the judge's words without the place it judged mark no step: the picture's step and run are data, never read from the words", () => {
    const record = [...ran(1, [1]), ...ran(2, range(3, 10))];
    const words = recordWrongWords(recordWrong(TASK, record)!);
    expect(words).toMatch(/^step 2 never ran/);
    expect(runsPicture(TASK, "run", [{}, {}], record, { says: words })!.wrong).toEqual({ says: words });
  });

  test("a repeat is marked wrong because the judge said the step ran too often, never because its words say so", () => {
    const picture = replayed();
    const worded = { ...picture, wrong: { step: 1, says: "step 1 ran 3 times (in sessions 1, 2, 3)" } };
    expect(picture.runs.flatMap((r) => r.cells).filter((c) => isWrongCell(worded, c))).toEqual([]);
    const reworded = { ...picture, wrong: { step: 1, says: "STEP ONE WAS REPEATED", ranAgain: true } };
    expect(picture.runs.flatMap((r) => r.cells).filter((c) => isWrongCell(reworded, c)).length).toBe(2);
  });

  test("a record naming a run the story did not tell gives no picture", () => {
    expect(runsPicture(TASK, "run", [{}], ran(2, [1]))).toBeNull();
  });

  test("a task of 20 steps: the axis runs 1 to 20, and the step never run is the one the judge names", () => {
    const picture = skipped20();
    expect(picture.steps).toBe(20);
    expect(picture.wrong).toEqual({ step: 13, says: "step 13 never ran" });
    const axis = runsLines(picture, { width: 120, indent: 2, c: pc.createColors(false) })[1]!;
    expect(axis.trim().split(/\s+/).slice(-2)).toEqual(["19", "20"]);
  });

  const pictures: [string, () => RunsPicture][] = [["skipped step", skipped], ["replayed sessions", replayed], ["skipped step of 20", skipped20]];
  for (const [name, make] of pictures)
    for (const width of [60, 80, 120])
      for (const colour of [false, true])
        test(`${name} at ${width} columns ${colour ? "with" : "without"} colour: at most 12 lines, none wider than the terminal, the ↑ under the named step's number on the axis`, () => {
          const picture = make();
          const lines = runsLines(picture, { width, indent: 6, c: pc.createColors(colour) });
          expect(lines.length).toBeLessThanOrEqual(12);
          for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
          const plain = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
          const axis = plain[1]!;
          const arrow = plain.find((l) => l.includes("↑"))!;
          const step = String(picture.wrong!.step);
          // The arrow sits under the last digit of the step's number.
          const at = axis.search(new RegExp(`(?<=\\s)${step}(?=\\s|$)`)) + step.length - 1;
          expect(arrow.indexOf("↑")).toBe(at);
          if (picture.runs.some((r) => r.killed)) expect(plain.join("\n")).toContain("✂");
        });

  test("a row per run even when there are more than fit: the last run is kept and the rest are counted", () => {
    const record = range(1, 10).map((step) => ({ step, run: step, input: EXPECTED.inputs[step]! }));
    const picture = runsPicture(TASK, "run", range(1, 10).map((budget) => ({ budget: 1 })), record)!;
    const lines = runsLines(picture, { width: 80, indent: 2, c: pc.createColors(false) });
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.some((l) => /… \d+ more runs/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes("run 10 max 1"))).toBe(true);
  });
});

describe("the folders before and after a crashed run", () => {
  const scratch = scratchFolder();
  const CHECKPOINT = "@/work/task-checkpoint.json";
  const state = (step: number) => JSON.stringify({ nextStep: step + 1, state: `after step ${step}` });

  /** A run that finds the checkpoint after step 1 and saves steps 2 and 3 atomically (temp file, fsync, rename), recorded. */
  function recordRun(): Crash["run"] {
    const root = layScenario(scratch.fresh("run"));
    const w = (rel: string) => path.join(root, "work", rel);
    const rec = new Recorder(root);
    const { fs: f } = recordingFs(rec);
    f.writeFileSync(w("task-checkpoint.json"), state(1));
    rec.mark("call:runTask");
    const start = rec.trace().entries.length - 1;
    for (const step of [2, 3]) {
      const tmp = w(`.task-checkpoint.json.${step}.tmp`);
      const fd = f.openSync(tmp, "w");
      f.writeSync(fd, state(step));
      f.fsyncSync(fd);
      f.closeSync(fd);
      f.renameSync(tmp, w("task-checkpoint.json"));
    }
    rec.mark("return:runTask");
    return { traceId: "t", trace: rec.trace(), start };
  }

  /** What the real replay of `cut` leaves: "name size" for each file, as the picture names it. */
  function replayed(run: Crash["run"], cut: Cut): string[] {
    const root = layScenario(scratch.fresh("replayed"));
    replay(run.trace, cut, root);
    return listDisk(root).map((f) => `${normaliseName(f.path)} ${f.size}`).sort();
  }

  test("at every crash point of the run, the folder after it is the files and sizes the real replay leaves, and the folder before it the one the run started on", () => {
    const run = recordRun();
    const cuts = crashCuts(run.trace, run.start, run.trace.entries.length, [0.5]);
    expect(cuts.some((c) => c.bytes !== undefined)).toBe(true);
    for (const cut of cuts) {
      const folders = crashFolders([{ run, cut }], CHECKPOINT)!;
      expect(folders, JSON.stringify(cut)).toBeDefined();
      expect(folders.run).toBe(1);
      expect(folders.after.map((f) => `${f.name} ${f.bytes}`).sort(), JSON.stringify(cut)).toEqual(replayed(run, cut));
      expect(folders.before.map((f) => `${f.name} ${f.bytes}`)).toEqual(replayed(run, { at: run.start }));
      expect(folders.before.map((f) => f.holds)).toEqual(["old"]);
    }
  });

  test("the checkpoint the run found is old, the one it left new, a half-written temp file torn with the rest of its write missing, and the state between them other", () => {
    const run = recordRun();
    const writes = run.trace.entries.flatMap((e, i) => (e.kind === "write" && i > run.start ? [i] : []));
    const renames = run.trace.entries.flatMap((e, i) => (e.kind === "rename" ? [i] : []));
    const holds = (cut: Cut) => Object.fromEntries(crashFolders([{ run, cut }], CHECKPOINT)!.after.map((f) => [f.name, f.holds]));
    const torn = crashFolders([{ run, cut: { at: writes[1]!, bytes: 5 } }], CHECKPOINT)!.after.find((f) => f.holds === "torn")!;
    expect(torn.name).toBe(".task-checkpoint.json.3.tmp");
    expect(torn.preview?.missingBytes).toBe(state(3).length - 5);
    expect(holds({ at: writes[1]!, bytes: 5 })["task-checkpoint.json"]).toBe("other");
    // A tear in an earlier step's write is marked against what that write was writing, not the run's last state.
    const earlier = crashFolders([{ run, cut: { at: writes[0]!, bytes: 13 } }], CHECKPOINT)!.after.find((f) => f.name === ".task-checkpoint.json.2.tmp")!;
    expect(earlier.holds).toBe("torn");
    expect(earlier.preview?.missingText).toBe(state(2).slice(13));
    expect(holds({ at: renames[0]! })["task-checkpoint.json"]).toBe("old");
    expect(holds({ at: renames[1]! + 1 })).toEqual({ "task-checkpoint.json": "new" });
  });

  test("a chain of crashes, or a cut outside the run, has no folders: a later run's trace does not hold the disk it started on", () => {
    const run = recordRun();
    const cut = { at: run.trace.entries.length - 1 };
    expect(crashFolders([{ run, cut }, { run, cut }], CHECKPOINT)).toBeUndefined();
    expect(crashFolders([{ run, cut: { at: run.start - 1 } }], CHECKPOINT)).toBeUndefined();
    expect(crashFolders([{ run, cut: { at: run.start + 1, bytes: 3 } }], CHECKPOINT)).toBeUndefined();
  });
});

describe("the runs picture's SVG", () => {
  /** A picture of `steps` steps with every cue the legend names: a run killed, a step run again, a wrong step. */
  const everyCue = (steps: number): RunsPicture => ({
    kind: "runs",
    unit: "run",
    steps,
    runs: [
      { cells: [{ step: 1, time: 1 }], killed: { step: 1, at: "after", words: "at the boundary after step 1" } },
      { cells: [{ step: 1, time: 2 }, { step: 2, time: 1 }] },
    ],
    wrong: { step: 2, says: "step 2 never ran" },
  });
  /** The legend's lines and where the last one's baseline falls, and the SVG's height, from its markup. */
  function legendOf(svg: string): { lines: string[]; lastBaseline: number; height: number } {
    const legend = /<text class="legend" x="[\d.]+" y="([\d.]+)">(.*?)<\/text>/.exec(svg)!;
    const lines = [...legend[2]!.matchAll(/<tspan[^>]*>(.*?)<\/tspan>/g)].map((m) => m[1]!);
    return { lines, lastBaseline: Number(legend[1]) + (lines.length - 1) * 16, height: Number(/ height="([\d.]+)"/.exec(svg)![1]) };
  }

  test.each([2, 5, 10])("with %i steps, each of the legend's cues is whole on one line, every line inside the SVG's height", (steps) => {
    const { lines, lastBaseline, height } = legendOf(runsSvg(everyCue(steps)));
    for (const cue of ["filled: ran", "×2, dashed: ran again", "✂: killed", "✗: wrong"]) expect(lines.filter((l) => l.includes(cue)), cue).toHaveLength(1);
    expect(lastBaseline + 4).toBeLessThanOrEqual(height);
  });
});
