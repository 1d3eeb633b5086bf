// The board where a grade's deliverables leave their checks' verdicts: a later deliverable tries
// the grader's stand-in for an earlier file only when that file's deliverable showed a bug.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import type { GradeConfig } from "../grading/config.js";
import { postVerdict, showedABug } from "../grading/verdict-board.js";
import { loadRubric } from "../rubric.js";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "verdict-board-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A grade's config whose board is a fresh folder; `checkMs` short, so a verdict never posted is not waited for long. */
function grade(only: string[] = []): GradeConfig {
  const rubric = loadRubric();
  return { work: fs.mkdtempSync(path.join(work, "g-")), only, rubric: { ...rubric, limits: { ...rubric.limits, checkMs: 300 } } } as unknown as GradeConfig;
}

const phase2 = loadRubric().deliverables.find((d) => d.id === "phase2")!.checks.map((c) => c.id);

test("a deliverable whose every check passed showed no bug; one failed check, or one still undecided, is a bug shown", async () => {
  const passed = grade();
  for (const id of phase2) postVerdict(passed, id, "passed");
  expect(await showedABug(passed, "phase2")).toBe(false);
  const failed = grade();
  for (const id of phase2) postVerdict(failed, id, id === "phase2.max-steps" ? "failed" : "passed");
  expect(await showedABug(failed, "phase2")).toBe(true);
  const undecided = grade();
  for (const id of phase2.slice(1)) postVerdict(undecided, id, "passed");
  expect(await showedABug(undecided, "phase2")).toBe(true);
});

test("a deliverable not graded in full here (--only) is \"not graded\": nothing says whether its file is right", async () => {
  const partial = grade(["phase3", "phase2.complete-run"]);
  for (const id of phase2) postVerdict(partial, id, "passed");
  expect(await showedABug(partial, "phase2")).toBe("not graded");
  const whole = grade(["phase3", "phase2"]);
  for (const id of phase2) postVerdict(whole, id, "passed");
  expect(await showedABug(whole, "phase2")).toBe(false);
});
