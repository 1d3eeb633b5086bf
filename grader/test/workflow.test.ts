// The Classroom-style autograding workflow (.github/workflows/classroom.yml), linted and run as
// GitHub would run it: its steps in order on a checkout whose starter/ is the target, with the
// grading reporter emulated. The points the reporter would annotate must be the JSON report's
// core score, whatever the target, and a grade that dies must still leave every deliverable's
// points on the annotation.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { markdown } from "../report/formats/markdown.js";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { gradeBoundMs } from "../sandbox/supervisor/limits.js";
import { checkoutWith } from "./support/checkout.js";
import { composeTarget } from "./support/grade.js";
import { emulateGradingReporter, type ReporterOutcome } from "./support/grading-reporter.js";
import { lintWorkflow } from "./support/workflow-lint.js";
import { actionName, loadWorkflow, runJob, type JobRun, type WorkflowJob, type WorkflowStep } from "./support/workflow-runner.js";

const WORKFLOWS = path.join(REPO_ROOT, ".github/workflows");
const CLASSROOM = path.join(WORKFLOWS, "classroom.yml");
const REPORTER = "classroom-resources/autograding-grading-reporter";
const BUGGY = "phase2/skip-step-on-resume";
/** The bonus tier the platform tests keep (see keepOnlyBonus): the cheapest to grade. */
const ONE_BONUS = ["stretch-diff"];

/** The workflow's one job. */
function classroomJob(): WorkflowJob {
  const jobs = Object.values(loadWorkflow(CLASSROOM).jobs);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

/** The step that uses `action` (by name, without version). */
function stepUsing(job: WorkflowJob, action: string): WorkflowStep {
  const step = job.steps.find((s) => s.uses !== undefined && actionName(s.uses) === action);
  if (!step) throw new Error(`the workflow has no step that uses ${action}`);
  return step;
}

/** The rubric's deliverables that count in the core score, which the reporter must total. */
function coreDeliverables(): string[] {
  return loadRubric().deliverables.filter((d) => d.enabled && d.kind === "core" && d.checks.length > 0).map((d) => d.id);
}

interface ClassroomRun {
  job: JobRun;
  /** What the reporter did, when its step ran. */
  reporter?: ReporterOutcome;
  /** The grade's JSON report, when the grade wrote one. */
  report: Report | null;
  /** The files the artifact step names that exist when it runs. */
  uploaded: string[];
}

/** Runs the workflow's job on a checkout whose starter/ is `target`; `npm ci` is replaced by the repository's node_modules. */
async function runClassroom(target: string | null | "missing", options: { bonus?: string[] } = {}): Promise<ClassroomRun> {
  const checkout = await checkoutWith(target, options);
  try {
    let reporter: ReporterOutcome | undefined;
    const job = await runJob(classroomJob(), {
      workspace: checkout.path,
      skip: (step) => (/^npm ci( [\w-]+)*$/.test(step.run?.trim() ?? "") ? "the checkout links the installed node_modules" : undefined),
      actions: {
        [REPORTER]: (inputs, env) => {
          reporter = emulateGradingReporter(inputs.runners ?? "", env);
          return { failed: reporter.failed, log: reporter.annotation };
        },
      },
    });
    const reportFile = path.join(checkout.path, ".grade/report.json");
    const report = fs.existsSync(reportFile) ? (JSON.parse(fs.readFileSync(reportFile, "utf8")) as Report) : null;
    const artifact = String(stepUsing(classroomJob(), "actions/upload-artifact").with?.path ?? "");
    const uploaded = artifact.split("\n").map((p) => p.trim()).filter((p) => p && fs.existsSync(path.join(checkout.path, p)));
    return { job, reporter, report, uploaded };
  } finally {
    await checkout.cleanup();
  }
}

/** The step of the run with this id. */
function ranStep(run: ClassroomRun, id: string) {
  return run.job.steps.find((s) => s.step.id === id)!;
}

/** Checks what every run must show: the reporter ran, its total is the report's core score, per deliverable too, and the summary is the grade. */
function expectReporterMatchesReport(run: ClassroomRun): { reporter: ReporterOutcome; report: Report } {
  const { reporter, report } = run;
  expect(reporter, run.job.steps.map((s) => `${s.step.name}: ${s.outcome}\n${s.log}`).join("\n")).toMatchObject({ runners: expect.any(Array), annotation: expect.any(String) });
  expect(report).not.toBeNull();
  expect(reporter!.runners.map((r) => r.id)).toEqual(coreDeliverables());
  for (const { id, result } of reporter!.runners) {
    const deliverable = report!.deliverables.find((d) => d.id === id)!;
    expect({ id, points: result.tests.reduce((n, t) => n + t.score, 0), max: result.max_score }).toEqual({ id, points: deliverable.points, max: deliverable.maxPoints });
    expect(result.tests.map((t) => t.name.split(":")[0])).toEqual(deliverable.checks.map((c) => c.id));
  }
  expect({ points: reporter!.points, max: reporter!.maxPoints }).toEqual({ points: report!.score, max: report!.maxScore });
  expect(reporter!.annotation).toBe(`Points ${report!.score}/${report!.maxScore}`);
  // The summary is the whole grade, bonus included, as the report renders it, then the note on the annotation.
  const grade = markdown(report!);
  expect(grade).toContain(`## Checkpoint lab: ${report!.score}/${report!.maxScore}, bonus ${report!.bonus}/${report!.maxBonus}`);
  expect(run.job.summary.slice(0, grade.length)).toBe(grade);
  expect(run.job.summary).toMatch(/annotation counts the core deliverables only/);
  expect(run.uploaded).toEqual([".grade/report.json", ".grade/report.html", ".grade/junit.xml"]);
  // The page is named in the summary, as the grade wrote it.
  expect(run.job.summary).toContain("download this run's `grade-report` artifact and open `report.html` in a browser");
  // Each result reaches the reporter as one environment variable, which Linux caps at 128 KiB.
  for (const id of coreDeliverables()) expect(ranStep(run, id).outputs.result?.length).toBeLessThan(128 * 1024);
  return { reporter: reporter!, report: report! };
}

describe("the autograding workflow, read and linted", () => {
  test("actionlint, bash -n, pinned versions and known action inputs find nothing in any workflow", async () => {
    const files = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
    expect(files).toContain("classroom.yml");
    for (const file of files) expect(await lintWorkflow(path.join(WORKFLOWS, file))).toEqual([]);
  });

  test("the lint catches a broken reference, a script that does not parse, an unpinned action and a misspelt input", async () => {
    const { path: folder, cleanup } = await dir({ unsafeCleanup: true });
    try {
      const broken = fs
        .readFileSync(CLASSROOM, "utf8")
        .replace("steps.phase2.outputs.result", "steps.phase9.outputs.result")
        .replace("if [ ! -s .grade/summary.md ]; then", "if [ ! -s .grade/summary.md ]; do")
        .replace("actions/checkout@v4", "actions/checkout@main")
        .replace("include-hidden-files:", "include-hidden-file:");
      fs.writeFileSync(path.join(folder, "classroom.yml"), broken);
      const problems = (await lintWorkflow(path.join(folder, "classroom.yml"))).join("\n");
      expect(problems).toMatch(/"phase9" is not defined/);
      expect(problems).toMatch(/"Job summary": bash -n: .*syntax error/);
      expect(problems).toMatch(/actions\/checkout@main names no version/);
      expect(problems).toMatch(/has no input "include-hidden-file"/);
    } finally {
      await cleanup();
    }
  });

  test("the reporter's runners are exactly the rubric's enabled core deliverables, each fed by a step of its own", () => {
    const job = classroomJob();
    const reporter = stepUsing(job, REPORTER);
    const runners = String(reporter.with?.runners).split(",").map((r) => r.trim());
    expect(runners).toEqual(coreDeliverables());
    expect(Object.keys(reporter.env ?? {}).sort()).toEqual(runners.map((id) => `${id.toUpperCase()}_RESULTS`).sort());
    for (const id of runners) {
      expect(reporter.env?.[`${id.toUpperCase()}_RESULTS`]).toBe(`\${{ steps.${id}.outputs.result }}`);
      const step = job.steps.find((s) => s.id === id);
      expect(step?.run, `a step with id ${id}`).toEqual(expect.any(String));
      expect(step!.if).toBe("always()");
      expect(step!.run).toMatch(new RegExp(`npm run report -- --from (\\S+) --only ${id} --runner-result `));
      expect(step!.run).toMatch(/\$GITHUB_OUTPUT/);
    }
  });

  test("it is named, triggered, permitted and bounded as the Classroom reporter and the grader need", () => {
    const workflow = loadWorkflow(CLASSROOM);
    expect(workflow.name).toBe("Autograding Tests"); // the reporter finds its check run by this name
    expect(Object.keys(workflow.on as Record<string, unknown>).sort()).toEqual(["push", "repository_dispatch", "workflow_dispatch"]);
    expect(workflow.permissions).toEqual({ checks: "write", actions: "read", contents: "read" });
    const job = classroomJob();
    expect(job.if).toBe("github.actor != 'github-classroom[bot]'");
    const node = stepUsing(job, "actions/setup-node").with!;
    expect([22, 24]).toContain(Number(node["node-version"]));
    expect(node.cache).toBe("npm");
    const grades = job.steps.filter((s) => /^\s*(?:"\$\{as_root\[@\]\}" )?npm run grade\b/m.test(s.run ?? ""));
    expect(grades).toHaveLength(1);
    const grade = grades[0]!;
    expect(grade["continue-on-error"]).toBe(true);
    expect(grade.run).toMatch(/npm run grade -- --no-cache --json \.grade\/report\.json --markdown \S+/);
    // A hosted runner's user is not root: the grade gets root through sudo, so the code runs as a
    // user of its own, and .grade/ is given back to the runner's user for the steps after it.
    expect(grade.run).toMatch(/if \[ "\$\(id -u\)" != 0 \] && sudo -n true 2>\/dev\/null; then as_root=\(sudo -E env "PATH=\$PATH"\); fi/);
    expect(grade.run).toMatch(/sudo chown -R "\$\(id -u\):\$\(id -g\)" \.grade/);
    // Twice the grader's own bound: a slow runner still finishes a grade that ends within it.
    expect(grade["timeout-minutes"]! * 60_000).toBeGreaterThanOrEqual(2 * gradeBoundMs(loadRubric().limits));
    expect(job["timeout-minutes"]!).toBeGreaterThan(grade["timeout-minutes"]! + 5);
    // Every step after the grade runs whatever happened before it.
    for (const step of job.steps.slice(job.steps.indexOf(grade) + 1)) expect(step.if, step.name).toBe("always()");
  });
});

describe.concurrent("the autograding workflow, run as GitHub would", () => {
  test("the solution: the reporter annotates 100/100, the report's core score, and passes", async () => {
    // Bonus points are the solution-and-starter test's concern; here they only have to stay out of
    // the total: one bonus tier shows that (the grade of every tier is graded elsewhere).
    const run = await runClassroom(SOLUTION_DIR, { bonus: ONE_BONUS });
    expect(run.report!.maxBonus).toBeGreaterThan(0);
    const { reporter } = expectReporterMatchesReport(run);
    expect(reporter.annotation).toBe("Points 100/100");
    expect(reporter.failed).toBe(false);
    expect(ranStep(run, "grade").outcome).toBe("success");
    expect(run.job.failed).toBe(false);
  });

  test("the starter: the reporter annotates 0/100, the report's core score, and fails its step", async () => {
    const run = await runClassroom(null);
    const { reporter } = expectReporterMatchesReport(run);
    expect(reporter.annotation).toBe("Points 0/100");
    expect(reporter.failed).toBe(true);
    // The grade exited 1, and the job went on to the reporter all the same.
    expect(ranStep(run, "grade").outcome).toBe("failure");
    expect(run.job.steps.filter((s) => s.skipped?.startsWith("if:")).map((s) => s.step.name)).toEqual([]);
    expect(run.job.summary).toMatch(/not implemented yet/);
  });

  test(`a buggy runner (${BUGGY}): partial credit on phase2 only, and the reporter's total is the report's`, async () => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", BUGGY));
    try {
      const run = await runClassroom(target.path, { bonus: ONE_BONUS });
      const { reporter, report } = expectReporterMatchesReport(run);
      const byRunner = Object.fromEntries(reporter.runners.map(({ id, result }) => [id, result.tests.reduce((n, t) => n + t.score, 0)]));
      expect(byRunner.phase1).toBe(35);
      expect(byRunner.phase3).toBe(30);
      expect(byRunner.phase2).toBeGreaterThan(0);
      expect(byRunner.phase2).toBeLessThan(35);
      expect(report.score).toBe(65 + byRunner.phase2!);
      const fails = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/fixtures", BUGGY, "fixture.json"), "utf8")) as { fails: string[] }).fails;
      const phase2 = reporter.runners.find((r) => r.id === "phase2")!.result;
      expect(phase2.status).toBe("fail");
      expect(phase2.tests.filter((t) => t.status !== "pass").map((t) => t.name.split(":")[0])).toEqual(fails.filter((id) => id.startsWith("phase2.")));
      expect(reporter.failed).toBe(true);
      expect(run.job.summary).toMatch(/Replay: `npm run grade -- /);
    } finally {
      await target.cleanup();
    }
  });

  test("a grade that cannot run still gives every core deliverable its points as errors, and the reporter still annotates", async () => {
    const run = await runClassroom("missing"); // no starter/ to grade: the grade exits 2 and writes no report
    expect(ranStep(run, "grade").outcome).toBe("failure");
    expect(ranStep(run, "grade").log).toMatch(/is not a folder/);
    expect(run.report).toBeNull();
    expect(run.reporter).toMatchObject({ runners: expect.any(Array), annotation: expect.any(String) });
    const reporter = run.reporter!;
    const rubric = loadRubric();
    expect(reporter.runners.map(({ id, result }) => [id, result.status, result.max_score])).toEqual(
      coreDeliverables().map((id) => [id, "error", rubric.deliverables.find((d) => d.id === id)!.checks.reduce((n, c) => n + c.points, 0)]),
    );
    for (const { result } of reporter.runners) for (const t of result.tests) expect([t.status, t.score, t.message]).toEqual(["error", 0, expect.stringMatching(/grade did not finish/)]);
    expect(reporter.annotation).toBe("Points 0/100");
    expect(reporter.failed).toBe(true);
    expect(run.job.summary).toContain("## Checkpoint lab: 0/100");
    expect(run.job.summary).toMatch(/grade did not finish/);
  });
});
