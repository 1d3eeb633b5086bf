// The Classroom 50 and Gradescope formats on made-up reports: whole points from fractional
// weights, the core score on top with bonus checks beside it, and what a missing variable says.
import Ajv2020 from "ajv/dist/2020.js";
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { classroom50Result } from "../report/formats/classroom50.js";
import { gradescopeResults } from "../report/formats/gradescope.js";
import { roundPoints, wholePoints } from "../report/formats/whole-points.js";
import type { CheckReport, CheckReportStatus, DeliverableReport, Report } from "../report/report.js";

const RUNNER_ENV = { CLASSROOM: "cs-lab", ASSIGNMENT: "checkpoint-lab", SUBMISSION_TAG: "submit/20261201T120000Z-abc1234", OWNER: "student1", COMMIT_URL: "https://example.test/commit", RELEASE_URL: "https://example.test/release" };

function check(id: string, maxPoints: number, status: CheckReportStatus): CheckReport {
  return { id, title: `title of ${id}`, status, points: status === "passed" ? maxPoints : 0, maxPoints, crashStates: 0, ...(status === "passed" ? {} : { message: `what happened to ${id}`, replay: `npm run grade -- --only ${id}` }) };
}

function deliverable(id: string, kind: "core" | "bonus", checks: CheckReport[]): DeliverableReport {
  const sum = (f: (c: CheckReport) => number) => checks.reduce((n, c) => n + f(c), 0);
  return { id, title: `title of ${id}`, kind, status: "graded", points: sum((c) => c.points), maxPoints: sum((c) => c.maxPoints), checks };
}

function report(deliverables: DeliverableReport[]): Report {
  const total = (kind: string, f: (d: DeliverableReport) => number) => deliverables.filter((d) => d.kind === kind).reduce((n, d) => n + f(d), 0);
  return { schemaVersion: 6, target: "starter", seed: 1, score: total("core", (d) => d.points), maxScore: total("core", (d) => d.maxPoints), bonus: total("bonus", (d) => d.points), maxBonus: total("bonus", (d) => d.maxPoints), deliverables, stats: { crashStates: 0, durationMs: 1500 } };
}

const mixed = report([
  deliverable("phase1", "core", [check("phase1.a", 8, "passed"), check("phase1.b", 4, "failed"), check("phase1.c", 12, "blocked")]),
  deliverable("phase2", "core", [check("phase2.a", 6, "error")]),
  deliverable("power-loss", "bonus", [check("power-loss.a", 6, "passed"), check("power-loss.b", 4, "failed")]),
]);

describe("whole points for Classroom 50", () => {
  test("whole weights are kept as they are", () => {
    const checks = mixed.deliverables[0]!.checks;
    expect(wholePoints(checks).map((w) => [w.score, w.maxScore])).toEqual([[8, 8], [0, 4], [0, 12]]);
  });

  test("fractional weights: the scores add up to the rounded score, the maximums to the rounded maximum, a passed check has full marks", () => {
    const weight = fc.integer({ min: 0, max: 60 }).map((n) => n / 4);
    const status = fc.constantFrom<CheckReportStatus>("passed", "failed", "blocked", "error");
    fc.assert(
      fc.property(fc.array(fc.tuple(weight, status), { maxLength: 12 }), (spec) => {
        const checks = spec.map(([w, s], i) => check(`c${i}`, w, s));
        const whole = wholePoints(checks);
        expect(whole.map((w) => w.check)).toEqual(checks);
        expect(whole.reduce((n, w) => n + w.score, 0)).toBe(roundPoints(checks.reduce((n, c) => n + c.points, 0)));
        expect(whole.reduce((n, w) => n + w.maxScore, 0)).toBe(roundPoints(checks.reduce((n, c) => n + c.maxPoints, 0)));
        for (const w of whole) {
          expect(Number.isInteger(w.score) && Number.isInteger(w.maxScore)).toBe(true);
          expect(w.score).toBe(w.check.status === "passed" ? w.maxScore : 0);
          expect(Math.abs(w.maxScore - w.check.maxPoints)).toBeLessThan(1);
        }
      }),
    );
  });

  test("three checks of 1/3 point each, two passed: 1 of 1", () => {
    const whole = wholePoints([check("a", 1 / 3, "passed"), check("b", 1 / 3, "passed"), check("c", 1 / 3, "failed")]);
    expect(whole.map((w) => [w.score, w.maxScore])).toEqual([[1, 1], [0, 0], [0, 0]]);
  });
});

describe("Classroom 50's result.json", () => {
  test("score and max-score are the core score; bonus checks are tests with their points", () => {
    const result = classroom50Result(mixed, { env: RUNNER_ENV, only: [] }, new Date("2026-12-01T12:34:56.789Z"));
    expect(result).toMatchObject({ schema: "classroom50/result/v1", classroom: "cs-lab", assignment: "checkpoint-lab", owner: "student1", assignment_type: "individual", review: "https://example.test/commit", datetime: "2026-12-01T12:34:56Z", score: 8, "max-score": 30 });
    expect(result.tests.map((t) => [t["test-name"].split(":")[0], t.passed, t.score, t["max-score"]])).toEqual([
      ["phase1.a", true, 8, 8],
      ["phase1.b", false, 0, 4],
      ["phase1.c", false, 0, 12],
      ["phase2.a", false, 0, 6],
      ["(bonus) power-loss.a", true, 6, 6],
      ["(bonus) power-loss.b", false, 0, 4],
    ]);
  });

  test("a missing runner variable is named; a submission tag must start with submit/", () => {
    const { CLASSROOM: _, OWNER: __, ...rest } = RUNNER_ENV;
    expect(() => classroom50Result(mixed, { env: rest, only: [] })).toThrow(/environment variables CLASSROOM, OWNER\b/);
    expect(classroom50Result(mixed, { env: { ...rest, CLASSROOM: "c", USERNAME: "u" }, only: [] }).owner).toBe("u");
    expect(() => classroom50Result(mixed, { env: { ...RUNNER_ENV, SUBMISSION_TAG: "v1.0" }, only: [] })).toThrow(/SUBMISSION_TAG must start with "submit\/"/);
  });
});

describe("Gradescope's results.json", () => {
  test("validates against gradescope/results.schema.json, which refuses a status Gradescope does not know", () => {
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "gradescope/results.schema.json"), "utf8")));
    const results = gradescopeResults(mixed);
    expect(validate(results), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...results, tests: [{ ...results.tests[0], status: "error" }] })).toBe(false);
  });

  test("the top-level score is the core score; every check is a visible test, bonus ones named so", () => {
    const results = gradescopeResults(mixed);
    expect(results.score).toBe(8);
    expect(results.output).toMatch(/^Checkpoint lab: 8\/30, and 6\/10 bonus points \(shown below, not in the score\)\.\n4 checks did not pass/);
    expect(results.output).toContain("1 of them could not be graded at all");
    expect(results.tests.map((t) => [t.name.split(":")[0], t.status, t.score, t.max_score, t.visibility])).toEqual([
      ["phase1.a", "passed", 8, 8, "visible"],
      ["phase1.b", "failed", 0, 4, "visible"],
      ["phase1.c", "failed", 0, 12, "visible"],
      ["phase2.a", "failed", 0, 6, "visible"],
      ["(bonus) power-loss.a", "passed", 6, 6, "visible"],
      ["(bonus) power-loss.b", "failed", 0, 4, "visible"],
    ]);
    expect(results.tests[1]!.output).toBe("what happened to phase1.b\nPartial grade: npm run grade -- --only phase1.b");
  });
});
