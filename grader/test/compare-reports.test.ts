// compare-reports says two graders gave one report from the report's comparable text: how long
// the grade took and which grader ran it must not change that text, what the report grades must,
// and the first difference it prints is where the two texts part.
import { describe, expect, test } from "vitest";
import type { CheckMeta } from "../contract/verdict.js";
import { buildReport, type Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { comparableText, firstDifference } from "../tools/compare/difference.js";

const RUBRIC = loadRubric();
const STORY = "On restart, loadCheckpoint returned null; expected the state just written";

function report(story: string, { durationMs = 100, node = "v20.0.0" }: { durationMs?: number; node?: string } = {}): Report {
  const metas = [
    { id: "phase1.round-trip", deliverable: "phase1", status: "passed", crashStates: 0, durationMs, span: [0, durationMs] },
    { id: "phase1.crash-safety", deliverable: "phase1", status: "failed", message: story, replay: "npm run grade -- --only phase1.crash-safety --seed 1 --replay 3", crashStates: 40, durationMs, span: [0, durationMs] },
  ] as CheckMeta[];
  return buildReport({ rubric: RUBRIC, target: "starter", seed: 1, gradedWith: { node }, metas, selected: (id) => id.startsWith("phase1"), durationMs: durationMs * 10, only: ["phase1"] });
}

describe("the report text compare-reports compares", () => {
  test("is the same for reports that differ only in durations and in the Node that graded them", () => {
    expect(comparableText(report(STORY, { durationMs: 5000, node: "v24.0.0" }))).toBe(comparableText(report(STORY)));
  });

  test("differs for a story with one word changed, and the first difference is the story's line", () => {
    const earlier = comparableText(report(STORY));
    const now = comparableText(report(STORY.replace("null", "undefined")));
    const d = firstDifference(earlier, now);
    expect(d).not.toBeNull();
    expect(d!.earlier[0]).toContain("loadCheckpoint returned null");
    expect(d!.now[0]).toContain("loadCheckpoint returned undefined");
    expect(earlier.split("\n").slice(0, d!.line - 1)).toEqual(now.split("\n").slice(0, d!.line - 1));
  });

  test("has no first difference for the same text, and one past the shorter text's end for a longer one", () => {
    expect(firstDifference("a\nb\n", "a\nb\n")).toBeNull();
    expect(firstDifference("a\n", "a\nb\n")).toEqual({ line: 2, earlier: [""], now: ["b", ""] });
  });
});
