// gradescope/run_autograder on a simulated /autograder layout: source/ (this repository, as the
// zip and setup.sh leave it), submission/ (what the student uploaded), results/. Its results.json
// must carry the JSON report's core score and one visible test per check, whatever shape the
// submission has, and must be written even when the grade cannot finish.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { GradescopeResults } from "../report/formats/gradescope.js";
import type { Report } from "../report/report.js";
import { copyRepository, labFiles, putFiles, tsFiles } from "./support/checkout.js";

interface GradescopeRun {
  exitCode: number;
  stdout: string;
  results: GradescopeResults | null;
  /** The JSON report the grade left in source/. */
  report: Report | null;
}

/** Lays out /autograder in a temp folder, lets `submit` fill submission/, and runs run_autograder there. */
async function runAutograder(submit: (submission: string) => void, env: Record<string, string> = {}): Promise<GradescopeRun> {
  const root = await dir({ unsafeCleanup: true, prefix: "gradescope-" });
  try {
    const source = path.join(root.path, "source");
    await copyRepository(source);
    fs.mkdirSync(path.join(root.path, "results"));
    fs.mkdirSync(path.join(root.path, "submission"));
    submit(path.join(root.path, "submission"));
    const run = await execa(path.join(source, "gradescope", "run_autograder"), [], { cwd: root.path, env: { AUTOGRADER_ROOT: root.path, NO_COLOR: "1", ...env }, reject: false, all: true });
    const json = <T>(file: string) => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as T) : null);
    return { exitCode: run.exitCode ?? -1, stdout: String(run.all), results: json<GradescopeResults>(path.join(root.path, "results", "results.json")), report: json<Report>(path.join(source, ".grade", "report.json")) };
  } finally {
    await root.cleanup();
  }
}

/** The results carry the report's core score and, per check, a visible test with its points and status. */
function expectSameAsReport(results: GradescopeResults | null, report: Report | null): asserts results is GradescopeResults {
  if (!results || !report) throw new Error("run_autograder left no results.json or no report");
  expect(results.score).toBe(report.score);
  expect(report.maxScore).toBe(100); // the pristine rubric, whatever the submission holds
  const checks = report.deliverables.flatMap((d) => d.checks.map((c) => ({ c, bonus: d.kind === "bonus" })));
  expect(results.tests.map((t) => [t.name, t.score, t.max_score, t.status, t.visibility])).toEqual(
    checks.map(({ c, bonus }) => [`${bonus ? "(bonus) " : ""}${c.id}: ${c.title}`, c.points, c.maxPoints, c.status === "passed" ? "passed" : "failed", "visible"]),
  );
  expect(results.stdout_visibility).toBe("visible");
}

describe.concurrent("Gradescope: run_autograder on a simulated /autograder", () => {
  test("a submission of one .ts file alone (the solution's checkpoint.ts): graded over the starter's other files, phase 1 earns its 35", async () => {
    const run = await runAutograder((submission) => putFiles(submission, new Map([["checkpoint.ts", path.join(REPO_ROOT, "solution", "checkpoint.ts")]])));
    expect(run.exitCode, run.stdout).toBe(0);
    expectSameAsReport(run.results, run.report);
    expect(run.results.score).toBe(35);
    const passed = (prefix: string) => run.results!.tests.filter((t) => t.name.replace("(bonus) ", "").startsWith(prefix)).map((t) => t.status);
    expect(new Set([...passed("phase1."), ...passed("power-loss."), ...passed("concurrency."), ...passed("disk-faults.")])).toEqual(new Set(["passed"]));
    expect(run.results.tests.find((t) => t.name.startsWith("phase2.complete-run"))!.output).toContain("not implemented yet");
    expect(run.results.output).toMatch(/^Checkpoint lab: 35\/100, and 30\/50 bonus points/);
    expect(run.stdout).toContain("Grading the lab files in submission/\n");
  });

  test("a whole repository in a folder, with a runner.ts that does not compile and a rubric of its own: graded by the pristine grader, 0", async () => {
    const run = await runAutograder((submission) => {
      const repo = path.join(submission, "checkpoint-lab-main");
      putFiles(path.join(repo, "starter"), tsFiles(path.join(REPO_ROOT, "starter"), path.join(REPO_ROOT, "grader/fixtures/hostile/syntax-error")));
      fs.mkdirSync(path.join(repo, "grader"));
      fs.writeFileSync(path.join(repo, "grader", "rubric.json"), JSON.stringify({ seed: 1, deliverables: [] }));
      putFiles(path.join(repo, "solution"), labFiles()); // a copy of the solution elsewhere in the repository is not graded
    });
    expect(run.exitCode, run.stdout).toBe(0);
    expectSameAsReport(run.results, run.report);
    expect(run.results.score).toBe(0);
    expect(run.stdout).toContain("Grading the lab files in submission/checkpoint-lab-main/starter\n");
    const complete = run.results.tests.find((t) => t.name.startsWith("phase2.complete-run"))!;
    expect(complete.output).toMatch(/^runner\.ts does not compile: runner\.ts:\d+:\d+: /);
    // Replays name no target: the student runs them in their own repository, on starter/.
    expect(complete.output).toMatch(/\nReplay: npm run grade -- --only phase2\.complete-run --seed \d+/);
    expect(complete.output).not.toContain("--target");
  });

  test("a grade that cannot finish (its time limit met): results.json with every check failed, and the summary says why", async () => {
    const run = await runAutograder((submission) => putFiles(submission, labFiles()), { GRADESCOPE_GRADE_TIMEOUT: "1" });
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.results?.score).toBe(0);
    expect(run.results?.tests.length).toBeGreaterThan(20);
    expect(run.results?.tests.every((t) => t.status === "failed" && t.score === 0 && t.visibility === "visible")).toBe(true);
    expect(run.results?.output).toMatch(/^The grade did not finish within 1 s, so no check could be graded/);
  });
});
