// The Regrade workflow (.github/workflows/regrade.yml) run as GitHub would run a dispatch of it:
// plan, every shard of the grade matrix, then merge, through the local workflow runner, with
// checkout, setup-node and the artifact actions emulated, over a class of 16 students'
// repositories (made from the student template) that a local stand-in for GitHub serves: the
// API's organisation listing and git over HTTP, both refusing a request without the token.
// The class: the solution in two copies and two correct fixtures of other styles, buggy Phase 1
// and Phase 2 fixtures, two hostile ones, a clone with a modified grader file, a starter not
// begun, work before the deadline with better work after it, a repository the listing names
// but the server cannot give, one whose every commit is after the deadline, and one that is no
// lab at all. To keep it affordable every shard grades with `--only phase1` (the workflow's
// input `only`) and the seed 4242 (the input `seed`), and the one grade-batch run it is checked against does too; it still takes
// several minutes, so it runs with the submissions (`npm run test:submissions`).
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { readGradebook } from "../tools/batch/gradebook-files.js";
import { cloneShard, type CloneRecord } from "../tools/regrade/clone.js";
import { readRoster } from "../tools/regrade/roster.js";
import { parseCsv, writeTemplate } from "./support/batch.js";
import { labFiles, putFiles } from "./support/checkout.js";
import { makeStudentRepo, type StudentCommit } from "./support/class-repos.js";
import { startGitHubStandIn, type GitHubStandIn } from "./support/github-stand-in.js";
import { emulatedActions } from "./support/workflow-actions.js";
import { dispatchWorkflow, type JobOutcome } from "./support/workflow-jobs.js";
import { loadWorkflow, type Workflow } from "./support/workflow-runner.js";

const WORKFLOW = path.join(REPO_ROOT, ".github/workflows/regrade.yml");
const ORG = "checkpoint-course";
const TOKEN = "github_pat_11REGRADE0workflowTestToken";
const DEADLINE = "2026-03-15T23:59:00Z";
const ACCEPTED = "2026-02-01T09:00:00Z";
const ON_TIME = "2026-03-10T12:00:00Z";
const LATE = "2026-03-20T08:00:00Z";
const FIXTURES = path.join(REPO_ROOT, "grader/fixtures");

/** The template as the student accepted it, then the student's lab files: the reference with `fixture`'s files on top. */
function templateThen(fixture: string | null, date = ON_TIME, more: (work: string) => void = () => {}): StudentCommit[] {
  const work = (w: string) => {
    putFiles(path.join(w, "starter"), labFiles(fixture ? path.join(FIXTURES, fixture) : undefined));
    more(w);
  };
  return [{ date: ACCEPTED, message: "Initial commit", write: writeTemplate }, { date, message: `work: ${fixture ?? "the reference"}`, write: work }];
}

/** Each student's repository (lab-<name>) as commits; null: listed by the organisation, absent from the server. */
const CLASS: Record<string, StudentCommit[] | null> = {
  alice: templateThen(null),
  bob: templateThen(null),
  carol: templateThen("correct/math-random-temp"),
  dave: templateThen("correct/append-log"),
  erin: templateThen("phase1/undefined-when-absent"),
  frank: templateThen("phase1/copy-instead-of-rename"),
  grace: templateThen("phase1/counter-temp-name"),
  heidi: templateThen("phase2/skip-step-on-resume"),
  ivan: templateThen("hostile/missing-export"),
  judy: templateThen("hostile/infinite-recursion"),
  mallory: templateThen(null, ON_TIME, (w) => fs.writeFileSync(path.join(w, "grader/rubric.json"), fs.readFileSync(path.join(w, "grader/rubric.json"), "utf8").replace(/"points": (\d+)/g, '"points": $10'))),
  niaj: [{ date: ACCEPTED, message: "Initial commit", write: writeTemplate }],
  trent: [...templateThen("phase1/write-in-place"), { date: LATE, message: "fixed after the deadline", write: (w) => putFiles(path.join(w, "starter"), labFiles()) }],
  oscar: null,
  peggy: templateThen(null, LATE).map((c) => ({ ...c, date: LATE })),
  victor: [{ date: ON_TIME, message: "notes", write: (w) => fs.writeFileSync(path.join(w, "NOTES.md"), "my notes\n") }],
};
const STUDENTS = Object.keys(CLASS).map((name) => `lab-${name}`).sort();

describe("the Regrade workflow, dispatched", () => {
  let tmp: { path: string; cleanup: () => Promise<void> };
  let github: GitHubStandIn;
  let store: string;
  let jobs: Record<string, JobOutcome>;
  let merged: string[][];
  let batch: string[][];
  let clones: CloneRecord;
  const seconds: Record<string, number> = {};

  beforeAll(async () => {
    tmp = await dir({ unsafeCleanup: true, prefix: "regrade-workflow-" });
    const server = path.join(tmp.path, "server");
    for (const [name, commits] of Object.entries(CLASS)) if (commits) await makeStudentRepo(server, `${ORG}/lab-${name}`, commits);
    // The organisation lists the class among other repositories, five a page.
    const listed = [...STUDENTS.slice(0, 8), "course-notes", ...STUDENTS.slice(8), "lab"];
    github = await startGitHubStandIn({ token: TOKEN, orgs: { [ORG]: listed }, bareRoot: server, pageSize: 5 });
    store = path.join(tmp.path, "artifacts");
    let started = Date.now();
    // Two shards at once, as GitHub runs them side by side, each on a processor of the machine.
    jobs = await dispatchWorkflow(loadWorkflow(WORKFLOW), {
      inputs: { org: ORG, prefix: "lab", shards: "4", deadline: DEADLINE, only: "phase1", seed: "4242" },
      secrets: { CLASSROOM_TOKEN: TOKEN },
      environment: { GITHUB_SERVER_URL: github.url, GITHUB_API_URL: github.apiUrl },
      actions: emulatedActions(store),
      skip: (step) => (/^npm ci( [\w-]+)*$/.test(step.run?.trim() ?? "") ? "the checkout links the installed node_modules" : undefined),
      onRun: (job, matrix, _run, took) => {
        seconds[`${job}${matrix ? ` ${JSON.stringify(matrix)}` : ""}`] = Math.round(took.ms / 1000);
      },
      runsAtOnce: 2,
    });
    seconds["the workflow"] = Math.round((Date.now() - started) / 1000);
    merged = parseCsv(fs.readFileSync(path.join(store, "gradebook/grades.csv"), "utf8"));

    // The same class cloned at the same deadline into one folder, graded by one grade-batch run.
    const roster = readRoster(path.join(store, "roster/roster.json"));
    const clonesDir = path.join(tmp.path, "one-batch/class");
    clones = await cloneShard({ roster: { ...roster, shards: 1 }, shard: { index: 1, count: 1 }, into: clonesDir, record: path.join(tmp.path, "one-batch/clones.json"), deadline: new Date(DEADLINE), serverUrl: github.url, token: TOKEN, timeoutMs: 60_000, log: () => {} });
    started = Date.now();
    // Two grades at once (the shards graded one at a time each): the rows must not depend on it.
    const run = await execa("npm", ["run", "--silent", "grade-batch", "--", clonesDir, "--out", path.join(tmp.path, "one-batch/grades.csv"), "--only", "phase1", "--seed", "4242", "--jobs", "2"], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1" } });
    seconds["one grade-batch"] = Math.round((Date.now() - started) / 1000);
    if (run.exitCode !== 0) throw new Error(`grade-batch exited ${run.exitCode}: ${run.stderr}`);
    batch = parseCsv(fs.readFileSync(path.join(tmp.path, "one-batch/grades.csv"), "utf8"));
    console.error(`Regrade workflow, seconds per job run: ${JSON.stringify(seconds)}`);
  }, 60 * 60_000);
  afterAll(async () => {
    await github?.close();
    await tmp?.cleanup();
  });

  /** The merged gradebook's row of `submission`, by column name. */
  const row = (submission: string) => Object.fromEntries(merged[0]!.map((h, i) => [h, merged.find((r) => r[0] === submission)![i]!]));
  /** Every job run's log and summary, as one text. */
  const everything = () => Object.values(jobs).flatMap((j) => j.runs.flatMap(({ run }) => [run.summary, ...run.steps.map((s) => s.log)])).join("\n");

  test("plan lists the organisation's lab-* repositories and starts 4 shards; every shard and the merge succeed", () => {
    const failures = Object.entries(jobs).flatMap(([id, j]) => j.runs.filter((r) => r.run.failed).map((r) => `${id} ${JSON.stringify(r.matrix)}:\n${r.run.steps.map((s) => `${s.step.name}: ${s.outcome}\n${s.log}`).join("\n")}`));
    expect(failures.join("\n\n")).toBe("");
    expect(jobs.plan!.outputs).toEqual({ shards: "4", matrix: '{"shard":[1,2,3,4]}' });
    expect(jobs.grade!.runs.map((r) => r.matrix)).toEqual([{ shard: 1 }, { shard: 2 }, { shard: 3 }, { shard: 4 }]);
    expect([jobs.plan!.result, jobs.grade!.result, jobs.merge!.result]).toEqual(["success", "success", "success"]);
    expect(readRoster(path.join(store, "roster/roster.json")).entries.map((e) => e.folder)).toEqual(STUDENTS);
  });

  test("each shard graded its own part of the class, at least three of them with students to grade", () => {
    const shardRows = [1, 2, 3, 4].map((k) => {
      const csv = path.join(store, `shard-${k}/grades.csv`);
      const graded = fs.existsSync(csv) ? parseCsv(fs.readFileSync(csv, "utf8")).slice(1).map((r) => r[0]!) : [];
      const record = JSON.parse(fs.readFileSync(path.join(store, `shard-${k}/clones.json`), "utf8")) as CloneRecord;
      return [...graded, ...record.failed.map((f) => f.folder)];
    });
    expect(shardRows.flat().sort()).toEqual(STUDENTS);
    expect(shardRows.filter((rows) => rows.length > 0).length).toBeGreaterThanOrEqual(3);
    for (const rows of shardRows) expect(rows.length).toBe(4);
  });

  test("the merged gradebook's rows equal, cell for cell but the report's path, one grade-batch run's over the same clones, plus the two that could not be cloned", () => {
    expect(merged[0]).toEqual(batch[0]);
    const reportAt = merged[0]!.indexOf("report");
    const cut = (rows: string[][]) => rows.slice(1).map((r) => r.filter((_, i) => i !== reportAt));
    const cloneErrors = ["lab-oscar", "lab-peggy"];
    expect(cut(merged).filter((r) => !cloneErrors.includes(r[0]!))).toEqual(cut(batch));
    expect(merged.slice(1).map((r) => r[0])).toEqual(STUDENTS);
    for (const r of merged.slice(1).filter((r) => r[1] === "graded")) expect(r[reportAt]).toBe(`grades-reports/${r[0]}.json`);
    // Every grade used the seed the run was given, not the rubric's.
    for (const r of merged.slice(1).filter((r) => r[1] === "graded")) expect(JSON.parse(fs.readFileSync(path.join(store, "gradebook", r[reportAt]!), "utf8")).seed, r[0]).toBe(4242);
  });

  test("error rows for the repository the server cannot give, the one with no commit before the deadline and the one that is no lab, with their reasons", () => {
    expect(row("lab-oscar")).toMatchObject({ status: "error", "core score": "", error: `could not clone ${ORG}/lab-oscar: repository '${github.url}/${ORG}/lab-oscar.git/' not found` });
    expect(row("lab-peggy")).toMatchObject({ status: "error", "core score": "", error: `${ORG}/lab-peggy has no commit on its default branch at or before the deadline 2026-03-15T23:59:00.000Z` });
    expect(row("lab-victor")).toMatchObject({ status: "error", "core score": "", error: "no starter/ folder and no checkpoint.ts" });
    expect(merged.slice(1).filter((r) => r[1] === "error").map((r) => r[0])).toEqual(["lab-oscar", "lab-peggy", "lab-victor"]);
  });

  test("scores are the pristine grader's: the modified clone is flagged, work after the deadline is not graded", () => {
    // Correct in Phase 1: the solution, the correct fixtures, a Phase 2 bug; every other fixture loses Phase 1 points.
    for (const name of ["lab-alice", "lab-bob", "lab-carol", "lab-dave", "lab-heidi", "lab-mallory"]) expect(row(name), name).toMatchObject({ status: "graded", phase1: "35" });
    for (const name of ["lab-erin", "lab-frank", "lab-grace", "lab-ivan", "lab-judy"]) expect(Number(row(name).phase1), name).toBeLessThan(35);
    expect(row("lab-mallory").modified).toBe("grader/rubric.json");
    expect(merged.slice(1).filter((r) => row(r[0]!).modified !== "").map((r) => r[0])).toEqual(["lab-mallory"]);
    expect(row("lab-niaj")).toMatchObject({ status: "graded", phase1: "0" });
    // lab-trent's fix came after the deadline: the write-in-place commit is the one graded.
    expect(Number(row("lab-trent").phase1)).toBeLessThan(35);
    const commits = JSON.parse(fs.readFileSync(path.join(store, "gradebook/grades-clones.json"), "utf8")) as CloneRecord["cloned"];
    expect(commits.find((c) => c.folder === "lab-trent")).toMatchObject({ repository: `${ORG}/lab-trent`, committedAt: "2026-03-10T12:00:00.000Z" });
    expect(commits.map((c) => c.commit)).toEqual(clones.cloned.map((c) => c.commit));
  });

  test("the job summary: students, graded and errors, medians, each error row, the modified clone, and where the gradebook is", () => {
    const summary = jobs.merge!.runs[0]!.run.summary;
    expect(summary).toContain("## Regrade: 16 students, 13 graded, 3 errors\n");
    expect(summary).toContain("Graded with `--only phase1`: a partial grade");
    const graded = merged.slice(1).filter((r) => r[1] === "graded").map((r) => Number(row(r[0]!).phase1)).sort((a, b) => a - b);
    expect(summary).toContain(`| core score | ${graded[6]} | 35 |\n| \`phase1\` | ${graded[6]} | 35 |\n| \`phase2\` | not graded | |`);
    expect(summary).toContain(`| \`lab-oscar\` | ${row("lab-oscar").error} |\n| \`lab-peggy\` | ${row("lab-peggy").error} |\n| \`lab-victor\` | no starter/ folder and no checkpoint.ts |`);
    expect(summary).toContain("| `lab-mallory` | grader/rubric.json |");
    expect(summary).toContain("The gradebook is this run's `gradebook` artifact");
  });

  test("the gradebook artifact holds the CSV, the JSON read back with every report, the class dashboard and the commit each repository was graded at", () => {
    const book = path.join(store, "gradebook");
    expect(fs.readdirSync(book).sort()).toEqual(["grades-clones.json", "grades-reports", "grades.csv", "grades.html", "grades.json"]);
    const rows = readGradebook(path.join(book, "grades.json"));
    expect(rows.map((r) => [r.submission, r.report?.score ?? null])).toEqual(merged.slice(1).map((r) => [r[0], r[1] === "graded" ? Number(row(r[0]!)["core score"]) : null]));
    expect(fs.readdirSync(path.join(book, "grades-reports")).sort()).toEqual(STUDENTS.filter((s) => row(s).status === "graded").map((s) => `${s}.json`));
    // The dashboard links each student to the report copied beside it, and lists the error rows.
    const dashboard = fs.readFileSync(path.join(book, "grades.html"), "utf8");
    expect(dashboard).toContain('<a href="grades-reports/lab-mallory.json" data-submission="lab-mallory">');
    for (const name of ["lab-oscar", "lab-peggy", "lab-victor"]) expect(dashboard).toContain(`data-row="${name}"`);
  });

  test("the token was sent to the server and appears in no log, summary, artifact or clone", () => {
    expect(github.requests.filter((r) => r.url.startsWith("/api/")).every((r) => r.authorized)).toBe(true);
    expect(github.requests.some((r) => !r.url.startsWith("/api/") && r.authorized)).toBe(true);
    expect(everything()).not.toContain(TOKEN);
    const files = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : [path.join(d, e.name)]));
    for (const file of files(store)) expect(fs.readFileSync(file, "utf8"), file).not.toContain(TOKEN);
    expect(fs.readFileSync(path.join(tmp.path, "one-batch/class/lab-alice/.git/config"), "utf8")).not.toContain(TOKEN);
  });
});

describe("the Regrade workflow, read", () => {
  const workflow: Workflow = loadWorkflow(WORKFLOW);

  test("GITHUB_TOKEN may only read; the token secret reaches only the steps that list and clone; no checkout keeps credentials", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    const withSecret = Object.entries(workflow.jobs).flatMap(([id, job]) => job.steps.filter((s) => JSON.stringify(s).includes("secrets.")).map((s) => `${id}: ${s.name}`));
    expect(withSecret).toEqual(["plan: Resolve the class and split it into shards", "grade: Clone this shard's repositories"]);
    for (const job of Object.values(workflow.jobs)) for (const step of job.steps.filter((s) => s.uses?.startsWith("actions/checkout@"))) expect(step.with).toEqual({ "persist-credentials": false });
  });

  test("the shards do not cancel each other, and the merge runs after a failed shard but not after a failed plan", () => {
    expect(workflow.jobs.grade!.strategy).toMatchObject({ "fail-fast": false, matrix: "${{ fromJSON(needs.plan.outputs.matrix) }}" });
    expect(workflow.jobs.merge!.needs).toEqual(["plan", "grade"]);
    expect(workflow.jobs.merge!.if).toBe("${{ !cancelled() && needs.plan.result == 'success' }}");
  });
});
