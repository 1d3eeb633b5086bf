// classroom50/autograder.py run as Classroom 50's runner runs it: no arguments, in a checkout of
// the student's repository (a copy of this one with the work in starter/), with the runner's
// variables set. Its result.json must validate against classroom50/result.schema.json and carry
// the JSON report's core score, for the solution, the starter and a buggy runner; a grade that
// cannot finish must still leave a valid result.
import Ajv2020 from "ajv/dist/2020.js";
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { Report } from "../report/report.js";
import { copyRepository, keepOnlyBonus, labFiles, putFiles } from "./support/checkout.js";

const AUTOGRADER = path.join(REPO_ROOT, "classroom50", "autograder.py");
const RUNNER_ENV = {
  CLASSROOM: "cs-lab",
  ASSIGNMENT: "checkpoint-lab",
  SUBMISSION_TAG: "submit/20261201T120000Z-abc1234",
  USERNAME: "student1",
  OWNER: "student1",
  COMMIT_URL: "https://example.test/org/cs-lab-checkpoint-lab-student1/commit/abc1234",
  RELEASE_URL: "https://example.test/org/cs-lab-checkpoint-lab-student1/releases/tag/submit%2F20261201T120000Z-abc1234",
  REVIEW_URL: "https://example.test/org/cs-lab-checkpoint-lab-student1/compare/0000000...abc1234",
  // The checkout's node_modules is this repository's, linked: see autograder.py.
  CLASSROOM50_SKIP_INSTALL: "1",
};
/** The bonus tier these runs keep (see keepOnlyBonus): the cheapest to grade. */
const ONE_BONUS = ["stretch-diff"];
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "classroom50", "result.schema.json"), "utf8")));

interface Result {
  score: number;
  "max-score": number;
  tests: { "test-name": string; passed: boolean; score: number; "max-score": number }[];
}

interface AutograderRun {
  exitCode: number;
  stderr: string;
  result: Result | null;
  releaseBody: string;
  /** The JSON report the grade left in the checkout. */
  report: Report | null;
}

/** Runs autograder.py in a fresh checkout whose starter/ holds `files` (the starter's own when null). */
async function autograde(files: Map<string, string> | null, env: Record<string, string> = {}, prepare?: (checkout: string) => void): Promise<AutograderRun> {
  const checkout = await dir({ unsafeCleanup: true, prefix: "classroom50-checkout-" });
  try {
    await copyRepository(checkout.path);
    if (files) putFiles(path.join(checkout.path, "starter"), files);
    prepare?.(checkout.path);
    const run = await execa("python3", [AUTOGRADER], { cwd: checkout.path, env: { ...RUNNER_ENV, ...env, NO_COLOR: "1" }, reject: false });
    const read = (file: string) => (fs.existsSync(path.join(checkout.path, file)) ? fs.readFileSync(path.join(checkout.path, file), "utf8") : null);
    const json = <T>(file: string) => (read(file) === null ? null : (JSON.parse(read(file)!) as T));
    return { exitCode: run.exitCode ?? -1, stderr: String(run.stderr), result: json<Result>("result.json"), releaseBody: read("release-body.md") ?? "", report: json<Report>(".grade/report.json") };
  } finally {
    await checkout.cleanup();
  }
}

/** The result validates against the schema, and the two rules a schema cannot say hold. */
function expectValid(result: Result | null): asserts result is Result {
  if (result === null) throw new Error("autograder.py wrote no result.json");
  const valid = validate(result);
  expect(valid ? [] : validate.errors).toEqual([]);
  expect(result.score).toBeLessThanOrEqual(result["max-score"]);
  for (const t of result.tests) expect(t.score).toBeLessThanOrEqual(t["max-score"]);
}

/** Score and max-score are the report's core score; one test per check, with the check's points. */
function expectSameAsReport(result: Result, report: Report): void {
  expect([result.score, result["max-score"]]).toEqual([report.score, report.maxScore]);
  const checks = report.deliverables.flatMap((d) => d.checks.map((c) => ({ c, bonus: d.kind === "bonus" })));
  expect(result.tests.map((t) => [t["test-name"], t.passed, t.score, t["max-score"]])).toEqual(
    checks.map(({ c, bonus }) => [`${bonus ? "(bonus) " : ""}${c.id}: ${c.title}`, c.status === "passed", c.points, c.maxPoints]),
  );
}

describe.concurrent("Classroom 50: autograder.py in a simulated checkout", () => {
  test("the solution: exit 0, a valid result.json with 100/100 and every test passed", async () => {
    // One bonus tier, the cheapest (see keepOnlyBonus): enough to show bonus checks kept out of the score.
    const run = await autograde(labFiles(), {}, (checkout) => keepOnlyBonus(checkout, ONE_BONUS));
    expect(run.exitCode, run.stderr).toBe(0);
    expectValid(run.result);
    expectSameAsReport(run.result, run.report!);
    expect(run.result.score).toBe(100);
    expect(run.result.tests.every((t) => t.passed)).toBe(true);
    expect(run.releaseBody).toMatch(/^## Checkpoint lab: 100\/100, bonus 10\/10\n/);
    expect(run.result.tests.filter((t) => t["test-name"].startsWith("(bonus) stretch-diff.")).length).toBeGreaterThan(0);
  });

  test("the starter: 0/100, release-body.md tells each deliverable not started in one line; a result.json in the checkout is not taken for the grade", async () => {
    const fake = { schema: "classroom50/result/v1", score: 100, "max-score": 100, tests: [] };
    const run = await autograde(null, {}, (checkout) => fs.writeFileSync(path.join(checkout, "result.json"), JSON.stringify(fake)));
    expect(run.exitCode, run.stderr).toBe(0);
    expectValid(run.result);
    expectSameAsReport(run.result, run.report!);
    expect(run.result.score).toBe(0);
    expect(run.releaseBody).toContain("not implemented yet");
    // A deliverable not started is one line, not a story per check.
    expect(run.releaseBody).toContain("not started: atomicCheckpoint and loadCheckpoint are not implemented yet (checkpoint.ts)");
    expect(run.releaseBody).not.toMatch(/(Replay|Partial grade): `npm run grade -- --only phase1\.round-trip/);
  });

  test("a runner that skips a step on resume: the report's core score, lost on phase2's checks only, each one told with its replay", async () => {
    const fixture = path.join(REPO_ROOT, "grader/fixtures/phase2/skip-step-on-resume");
    const run = await autograde(labFiles(fixture), {}, (checkout) => keepOnlyBonus(checkout, ONE_BONUS));
    expect(run.exitCode, run.stderr).toBe(0);
    expectValid(run.result);
    expectSameAsReport(run.result, run.report!);
    const fails = (JSON.parse(fs.readFileSync(path.join(fixture, "fixture.json"), "utf8")) as { fails: string[] }).fails;
    expect(run.result.tests.filter((t) => !t.passed).map((t) => t["test-name"].split(":")[0])).toEqual(fails);
    expect(run.result.score).toBe(100 - fails.reduce((n, id) => n + run.report!.deliverables.flatMap((d) => d.checks).find((c) => c.id === id)!.maxPoints, 0));
    // A check graded again is graded with Phase 1, which Phase 2 builds on (a partial grade, labelled so); a replay of one case needs no other.
    for (const id of fails) expect(run.releaseBody).toMatch(new RegExp(`(Partial grade: \`npm run grade -- --only phase1,|Replay: \`npm run grade -- --only )${id.replace(".", "\\.")} `));
  });

  test("a grade that cannot finish (its time limit met): exit 0, a valid result.json with every check failed, and release-body.md says why", async () => {
    // The reference's grade: 3,117 crash states take several seconds on any machine, where the
    // untouched starter's grade may end within the second.
    const run = await autograde(labFiles(), { CLASSROOM50_GRADE_TIMEOUT: "1" });
    expect(run.exitCode, run.stderr).toBe(0);
    expectValid(run.result);
    expect([run.result.score, run.result["max-score"]]).toEqual([0, 100]);
    expect(run.result.tests.length).toBeGreaterThan(20);
    expect(run.result.tests.every((t) => !t.passed && t.score === 0)).toBe(true);
    expect(run.releaseBody).toMatch(/^## The grade did not finish\n\n`npm run grade` did not finish within 1 s, so no check could be graded/);
  });

  test("without a runner variable it writes nothing and names the variable (exit 1: an infrastructure error)", async () => {
    const run = await autograde(null, { SUBMISSION_TAG: "", CLASSROOM50_GRADE_TIMEOUT: "1" });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("SUBMISSION_TAG");
    expect(run.result).toBeNull();
  });
});
