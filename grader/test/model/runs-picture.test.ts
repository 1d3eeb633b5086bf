// The "runs" picture (checks/phase2/runs-picture.ts) and its terminal lines
// (report/picture-lines-runs.ts): built from the record and the judge's words the story is told
// from, it names the step and run the story names, and it fits any terminal, with or without colour.
import pc from "picocolors";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import { expectedDigests } from "../../../lab/task.js";
import { judgeRecord, type Done } from "../../checks/phase2/ledger.js";
import { killedAt, runsPicture } from "../../checks/phase2/runs-picture.js";
import { runsLines } from "../../report/picture-lines-runs.js";
import type { RunsPicture } from "../../report/picture-runs.js";

const EXPECTED = expectedDigests();

/** The record of `steps` run by `run`, each on the state it must start from (or `input`). */
const ran = (run: number, steps: number[], input?: string): Done[] => steps.map((step) => ({ step, run, input: input ?? EXPECTED.inputs[step]! }));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

/** Skipped step 2 after a kill at the boundary after step 1. */
const skipped = () => {
  const record = [...ran(1, [1]), ...ran(2, range(3, 10))];
  return runsPicture("run", [{ budget: 4, killed: killedAt("at the boundary after step 1")! }, {}], record, judgeRecord(record))!;
};
/** Sessions of 4, 4 and 2 that each start again from step 1 (and run on past their budget), the last printing a wrong status. */
const replayedRecord = () => [...ran(1, range(1, 4)), ...ran(2, range(1, 8)), ...ran(3, range(1, 10))];
const replayed = () => {
  const record = replayedRecord();
  const printed = (line: string, wrong = false) => ({ line, ...(wrong ? { wrong } : {}) });
  const told = [{ budget: 4, printed: printed('{"status":"paused","nextStep":5}') }, { budget: 4, printed: printed('{"status":"paused","nextStep":5}') }, { budget: 2, printed: printed('{"status":"paused","nextStep":3}', true) }];
  return runsPicture("session", told, record, judgeRecord(record, [], "session"))!;
};

describe("the picture of runs of the task", () => {
  test("a step that never ran: the picture names the step the judge names, each run's cells are its steps in the record, and the kill is where locateCrash's words put it", () => {
    const picture = skipped();
    expect(picture.wrong).toEqual({ step: 2, says: "step 2 never ran" });
    expect(picture.runs.map((r) => r.cells.map((c) => c.step))).toEqual([[1], range(3, 10)]);
    expect(picture.runs[0]!.killed).toEqual({ step: 1, at: "after", words: "at the boundary after step 1" });
    expect(picture.runs[0]!.budget).toBe(4);
  });

  test("a step run too often: each later run of it counts its time, and the step the judge names is the wrong one", () => {
    const picture = replayed();
    expect(judgeRecord(replayedRecord(), [], "session")).toMatch(/^step 1 ran 3 times/);
    expect(picture.wrong?.step).toBe(1);
    expect(picture.runs[2]!.cells.map((c) => c.time)).toEqual([3, 3, 3, 3, 2, 2, 2, 2, 1, 1]);
    expect(picture.runs[2]!.printed).toEqual({ line: '{"status":"paused","nextStep":3}', wrong: true });
  });

  test("a step run on a wrong state: that run's cell of it, and only it, is marked", () => {
    const record = [...ran(1, range(1, 3)), ...ran(2, [4], EXPECTED.inputs[2]), ...ran(2, range(5, 10))];
    const picture = runsPicture("run", [{ killed: killedAt("inside runStep(4), before its side effect")! }, {}], record, judgeRecord(record))!;
    expect(picture.wrong).toMatchObject({ step: 4, run: 2 });
    const marked = picture.runs.flatMap((r, i) => r.cells.filter((c) => c.wrongState).map((c) => [i + 1, c.step]));
    expect(marked).toEqual([[2, 4]]);
  });

  test("locateCrash's words it does not know, or a record naming a run the story did not tell, give no picture", () => {
    expect(killedAt("somewhere else")).toBeNull();
    expect(runsPicture("run", [{}], ran(2, [1]), null)).toBeNull();
  });

  const pictures: [string, () => RunsPicture][] = [["skipped step", skipped], ["replayed sessions", replayed]];
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
    const picture = runsPicture("run", range(1, 10).map((budget) => ({ budget: 1 })), record, null)!;
    const lines = runsLines(picture, { width: 80, indent: 2, c: pc.createColors(false) });
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.some((l) => /… \d+ more runs/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes("run 10 max 1"))).toBe(true);
  });
});
