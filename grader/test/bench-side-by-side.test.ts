// The side-by-side bench (`npm run bench -- --against <commit>`) says whether two graders graded a
// target the same from a digest of each report: what the report grades must change it, how long
// the grade took and which grader ran it must not.
import { describe, expect, test } from "vitest";
import type { CheckMeta } from "../contract/verdict.js";
import { buildReport, type Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { gradeDigest } from "../tools/bench/against.js";

const RUBRIC = loadRubric();

function meta(id: string, status: CheckMeta["status"], over: Partial<CheckMeta> = {}): CheckMeta {
  return { id, deliverable: "phase1", status, crashStates: 40, durationMs: 100, span: [0, 100], ...over } as CheckMeta;
}

function report(metas: CheckMeta[], over: { durationMs?: number; node?: string } = {}): Report {
  return buildReport({ rubric: RUBRIC, target: "starter", seed: 1, gradedWith: { node: over.node ?? "v20.0.0" }, metas, selected: (id) => id.startsWith("phase1"), durationMs: over.durationMs ?? 1000, only: ["phase1"] });
}

const FAILED = "On restart, loadCheckpoint returned null; expected the state just written";

describe("the digest the side-by-side bench compares reports by", () => {
  const base = [meta("phase1.round-trip", "passed"), meta("phase1.crash-safety", "failed", { message: FAILED, replay: "npm run grade -- --only phase1.crash-safety --seed 1 --replay 3" })];

  test("is the same for reports that differ only in how long each check and the grade took, and in the Node that graded", () => {
    const slower = base.map((m) => ({ ...m, durationMs: m.durationMs * 3, span: [5, 500] as [number, number] }));
    expect(gradeDigest(report(slower, { durationMs: 9000, node: "v24.0.0" }))).toBe(gradeDigest(report(base)));
  });

  test("changes with a check's status, its crash states, its words or its replay command", () => {
    const digest = gradeDigest(report(base));
    const changed: CheckMeta[][] = [
      [base[0]!, { ...base[1]!, status: "passed", message: undefined, replay: undefined }],
      [base[0]!, { ...base[1]!, crashStates: 41 }],
      [{ ...base[0]!, crashStates: 39 }, base[1]!],
      [base[0]!, { ...base[1]!, message: FAILED.replace("null", "undefined") }],
      [base[0]!, { ...base[1]!, replay: base[1]!.replay!.replace("--replay 3", "--replay 4") }],
    ];
    for (const metas of changed) expect(gradeDigest(report(metas))).not.toBe(digest);
  });
});
