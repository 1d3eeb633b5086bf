// What the report and the class dashboard decide from a failure (whether a blocked check's own
// failure is told, whether a deliverable's file is told once, whether a deliverable was not
// started, how a class's failures group) comes from the failure's cause, never from its story:
// rewording every story, as a changed template would, changes none of it.
import { describe, expect, test } from "vitest";
import type { Cause, CheckMeta } from "../contract/verdict.js";
import { buildReport, type Report } from "../report/report.js";
import { wholeFileFailure } from "../report/whole-file.js";
import { loadRubric } from "../rubric.js";
import { checksAcross } from "../tools/batch/dashboard/failure-groups.js";

const RUBRIC = loadRubric();

/** A failed check of the rubric with `story` and `cause`, as a grade's test meta carries it. */
function failed(id: string, story: string, cause: Cause): CheckMeta {
  return { id, deliverable: id.split(".")[0]!, status: "failed", message: story, replay: `npm run grade -- --only ${id} --seed 1`, cause, crashStates: 1, durationMs: 1, span: [0, 1] };
}

const typeError: Cause = { errors: [{ name: "TypeError", message: "state.steps is not iterable" }], outcome: "loadCheckpoint threw TypeError" };
const notStarted = (fn: string, file: string): Cause => ({ errors: [{ name: "Error", message: `not implemented yet: ${fn} (starter/${file})` }], outcome: `${fn} is not implemented yet` });

/** One grade's failures: phase1's crash-safety fails as round-trip does, stale-temp another way; phase2 is not started; phase3's file does not compile. */
function metas(say: (story: string) => string): CheckMeta[] {
  const phase1 = [
    failed("phase1.round-trip", say("Wrote {}, then loaded it: loadCheckpoint threw TypeError: state.steps is not iterable."), typeError),
    failed("phase1.crash-safety", say("Killed after the rename: on restart, loadCheckpoint threw TypeError: state.steps is not iterable."), typeError),
    failed("phase1.stale-temp", say("A temp file left by a crash was loaded: loadCheckpoint returned null; expected the old state."), { outcome: "loadCheckpoint returned null" }),
  ];
  const phase2 = RUBRIC.deliverables.find((d) => d.id === "phase2")!.checks.map((c) => failed(c.id, say("runTask is not implemented yet."), notStarted("runTask", "runner.ts")));
  const compile = say("starter/session.ts does not compile: session.ts:8:40: Expected \")\" but found \";\"");
  const phase3 = RUBRIC.deliverables.find((d) => d.id === "phase3")!.checks.map((c) => failed(c.id, compile, { wholeFile: true, outcome: "session.ts does not compile" }));
  return [...phase1, ...phase2, ...phase3];
}

function grade(say: (story: string) => string): Report {
  return buildReport({ rubric: RUBRIC, target: "starter", seed: 1, gradedWith: { node: "v24.0.0" }, metas: metas(say), selected: (id) => ["phase1", "phase2", "phase3"].includes(id), durationMs: 1 });
}

/** What the report decided, without the words. */
function decided(report: Report) {
  return report.deliverables.map((d) => ({
    id: d.id,
    notStarted: d.notStarted,
    wholeFile: wholeFileFailure(d) !== undefined,
    checks: d.checks.map((c) => ({ id: c.id, status: c.status, waitsOn: c.waitsOn, alsoFails: c.alsoFails, replayed: c.replay !== undefined })),
  }));
}

describe("decisions from causes, not stories", () => {
  const plain = grade((s) => s);
  const reworded = grade((s) => `In other words: ${s.toUpperCase().replace(/ /g, "  ")}`);

  test("the stories differ word for word, and the report decides the same: who waits, who also fails, not started, a file told once", () => {
    expect(plain.deliverables[0]!.checks[0]!.message).not.toBe(reworded.deliverables[0]!.checks[0]!.message);
    expect(decided(reworded)).toEqual(decided(plain));
    const phase1 = decided(plain)[0]!.checks;
    expect(phase1.find((c) => c.id === "phase1.crash-safety")).toMatchObject({ status: "blocked", waitsOn: ["phase1.round-trip"], alsoFails: undefined });
    expect(phase1.find((c) => c.id === "phase1.stale-temp")).toMatchObject({ status: "blocked", alsoFails: true });
    expect(decided(plain).find((d) => d.id === "phase2")!.notStarted).toEqual({ functions: ["runTask (runner.ts)"], all: true });
    expect(decided(plain).find((d) => d.id === "phase3")!.wholeFile).toBe(true);
  });

  test("a class of two, one with the stories reworded: every failure groups with the other's, the dashboard's counts as for two identical reports", () => {
    const rows = (second: Report) => [{ submission: "a", report: plain, modified: [] }, { submission: "b", report: second, modified: [] }];
    const counts = (second: Report) => checksAcross(rows(second)).map((c) => ({ id: c.id, failed: c.failed, blocked: c.blocked, groups: c.groups.map((g) => [g.kind.key, g.students.length]) }));
    expect(counts(reworded)).toEqual(counts(plain));
    expect(checksAcross(rows(reworded)).every((c) => c.groups.every((g) => g.students.length === 2))).toBe(true);
  });
});
