// `npm run grade-batch`: a small class graded with the pristine grader into a gradebook whose
// cells match single grades, broken submissions as error rows, modified grader files flagged.
import { execa } from "execa";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { grade } from "./support/grade.js";
import { leftRunning, parseCsv, writeTemplate } from "./support/batch.js";

const ONLY = ["--only", "phase1", "--only", "phase2"];
const FIXTURES = path.join(REPO_ROOT, "grader/fixtures");

/** Runs `npm run grade-batch -- args`, with `mark` in its environment; never throws for a non-zero exit. */
function gradeBatch(args: string[], mark = "") {
  return execa("npm", ["run", "--silent", "grade-batch", "--", ...args], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1", BATCH_TEST_MARK: mark } });
}

/** A folder `name` in `root` holding the reference solution with `files` (name to source file) on top. */
function solutionWith(root: string, name: string, files: Record<string, string> = {}): string {
  const to = path.join(root, name);
  fs.cpSync(SOLUTION_DIR, to, { recursive: true });
  for (const [file, from] of Object.entries(files)) fs.copyFileSync(from, path.join(to, file));
  return to;
}

/** A clone of the student template whose starter/ holds the solution, with its rubric weights changed, a lab file deleted and a workflow added. */
function tamperedClone(root: string): void {
  const clone = path.join(root, "tampered-clone");
  writeTemplate(clone);
  fs.rmSync(path.join(clone, "starter"), { recursive: true });
  solutionWith(clone, "starter");
  const rubricFile = path.join(clone, "grader/rubric.json");
  fs.writeFileSync(rubricFile, fs.readFileSync(rubricFile, "utf8").replace(/"points": (\d+)/g, '"points": $10'));
  fs.rmSync(path.join(clone, "lab/canonical.ts"));
  fs.mkdirSync(path.join(clone, ".github/workflows"), { recursive: true });
  fs.writeFileSync(path.join(clone, ".github/workflows/full-marks.yml"), "name: full marks\n");
}

describe("grade-batch", () => {
  let tmp: { path: string; cleanup: () => Promise<void> };
  let subs: string;
  let run: Awaited<ReturnType<typeof gradeBatch>>;
  let rows: Record<string, Record<string, string>>;
  let header: string[];

  beforeAll(async () => {
    tmp = await dir({ unsafeCleanup: true, prefix: "batch-" });
    subs = path.join(tmp.path, "class");
    fs.mkdirSync(subs);
    solutionWith(subs, "correct");
    fs.cpSync(path.join(REPO_ROOT, "starter"), path.join(subs, "untouched"), { recursive: true });
    solutionWith(subs, "buggy", { "runner.ts": path.join(FIXTURES, "phase2/skip-step-on-resume/runner.ts") });
    solutionWith(subs, "syntax-error", { "runner.ts": path.join(FIXTURES, "hostile/syntax-error/runner.ts") });
    fs.mkdirSync(path.join(subs, "empty"));
    tamperedClone(subs);
    // Three of the class, and one student with no submission; untouched, syntax-error and empty are not in it.
    fs.writeFileSync(path.join(tmp.path, "roster-map.csv"), "Name,Submission,Student ID\r\nAda,correct,S-1\r\nBo,buggy,S-2\r\nCy,tampered-clone,S-3\r\nDi,gone,S-4\r\n");
    run = await gradeBatch([subs, "--out", path.join(tmp.path, "out/grades.csv"), "--jobs", "2", "--roster-map", path.join(tmp.path, "roster-map.csv"), ...ONLY]);
    const csv = parseCsv(fs.readFileSync(path.join(tmp.path, "out/grades.csv"), "utf8"));
    header = csv[0]!;
    rows = Object.fromEntries(csv.slice(1).map((cells) => [cells[0]!, Object.fromEntries(header.map((h, i) => [h, cells[i]!]))]));
  });
  afterAll(() => tmp.cleanup());

  test("writes one row per submission, sorted, with a column per deliverable, then the student id and a column per check, and exits 0 despite error rows", () => {
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toMatch(/Grading 6 submissions, 2 at a time/);
    expect(run.stderr).toMatch(/Wrote .*grades\.csv: 7 submissions, 2 errors/);
    const checks = loadRubric().deliverables.filter((d) => d.enabled).flatMap((d) => d.checks.map((c) => c.id));
    expect(header).toEqual(["submission", "status", "core score", "core max", "bonus", "bonus max", "phase1", "phase2", "phase3", "stretch-git", "stretch-diff", "power-loss", "concurrency", "disk-faults", "modified", "error", "report", "student id", ...checks]);
    expect(Object.keys(rows)).toEqual(["buggy", "correct", "empty", "gone", "syntax-error", "tampered-clone", "untouched"]);
  });

  test("gives each submission the roster map names its student id; a student of it with no submission is an error row, and both lists are said", () => {
    expect(Object.fromEntries(Object.values(rows).map((r) => [r.submission, r["student id"]]))).toEqual({ buggy: "S-2", correct: "S-1", empty: "", gone: "S-4", "syntax-error": "", "tampered-clone": "S-3", untouched: "" });
    expect(rows.gone).toMatchObject({ status: "error", "core score": "", "phase1.round-trip": "", error: "no submission for submission gone of the roster map (roster-map.csv, line 5)", report: "" });
    expect(run.stderr).toContain("roster-map.csv: 3 of its 4 students matched a submission.\nNot in roster-map.csv, so no student id: empty, syntax-error, untouched.\nNo submission, so an error row: gone (S-4).\n");
    expect(JSON.parse(fs.readFileSync(path.join(tmp.path, "out/grades.json"), "utf8")).rosterMap).toBe("roster-map.csv");
    // Beside it, the gradebook for Canvas's import: the graded students with an id, by SIS User ID.
    const canvas = parseCsv(fs.readFileSync(path.join(tmp.path, "out/grades-canvas.csv"), "utf8"));
    expect(canvas.slice(2).map((r) => [r[2], r[5]])).toEqual([["S-2", rows.buggy!["core score"]], ["S-1", rows.correct!["core score"]], ["S-3", rows["tampered-clone"]!["core score"]]]);
  });

  test("each check's column holds the points its report gave it, and is empty for a check not graded", () => {
    for (const name of ["correct", "buggy", "untouched"]) {
      const report = JSON.parse(fs.readFileSync(path.join(tmp.path, "out", rows[name]!.report!), "utf8")) as Report;
      const graded = report.deliverables.flatMap((d) => d.checks);
      expect(graded.length).toBeGreaterThan(5);
      for (const c of graded) expect(rows[name]![c.id], `${name} ${c.id}`).toBe(String(c.points));
    }
    for (const id of header.filter((h) => h.startsWith("phase3.") || h.startsWith("power-loss."))) expect(rows.correct![id]).toBe("");
  });

  test("scores each submission as a single grade of the same folder does", async () => {
    const [buggy, syntax] = await Promise.all([grade(path.join(subs, "buggy"), ONLY), grade(path.join(subs, "syntax-error"), ONLY)]);
    for (const [name, single] of [["buggy", buggy.report!], ["syntax-error", syntax.report!]] as const) {
      const phase2 = single.deliverables.find((d) => d.id === "phase2")!.points;
      expect(rows[name]).toMatchObject({ status: "graded", "core score": String(single.score), "core max": "70", phase1: "35", phase2: String(phase2), phase3: "", error: "" });
      const batch = JSON.parse(fs.readFileSync(path.join(tmp.path, "out", rows[name]!.report!), "utf8")) as Report;
      const verdicts = (r: Report) => r.deliverables.flatMap((d) => d.checks.map((c) => `${c.id} ${c.status} ${c.points}`));
      expect(verdicts(batch)).toEqual(verdicts(single));
    }
    expect(rows.buggy!["core score"]).toBe("46"); // skipping a step on resume costs Phase 2 its crash checks
    expect(rows["syntax-error"]!["core score"]).toBe("35");
    expect(rows.correct).toMatchObject({ status: "graded", "core score": "70", "core max": "70", bonus: "0", "bonus max": "0", phase1: "35", phase2: "35", modified: "", report: "grades-reports/correct.json" });
    expect(rows.untouched).toMatchObject({ status: "graded", "core score": "0", phase1: "0", phase2: "0" });
  });

  test("grades a clone with the pristine grader and lists the grader files it changed", () => {
    expect(rows["tampered-clone"]).toMatchObject({ status: "graded", "core score": "70", "core max": "70", phase1: "35" });
    expect(rows["tampered-clone"]!.modified).toBe(".github/workflows/full-marks.yml (added), grader/rubric.json, lab/canonical.ts (missing)");
    for (const name of ["correct", "buggy", "untouched"]) expect(rows[name]!.modified).toBe("");
  });

  test("gives a folder that is no submission an error row, and every graded one its report", () => {
    expect(rows.empty).toMatchObject({ status: "error", "core score": "", phase1: "", error: "no starter/ folder and no checkpoint.ts", report: "" });
    for (const row of Object.values(rows).filter((r) => r.status === "graded")) {
      const report = JSON.parse(fs.readFileSync(path.join(tmp.path, "out", row.report!), "utf8")) as Report;
      expect(row.report).toBe(`grades-reports/${row.submission}.json`);
      expect(String(report.score)).toBe(row["core score"]);
    }
  });

  test("stops a grade that outlives the wall-clock limit, with every process below it, and goes on", async () => {
    const hang = path.join(tmp.path, "hang");
    solutionWith(hang, "spins", { "checkpoint.ts": path.join(FIXTURES, "hostile/hang-when-absent/checkpoint.ts") });
    fs.cpSync(path.join(REPO_ROOT, "starter"), path.join(hang, "untouched"), { recursive: true });
    // A call may spin for 2 minutes before the grader stops it, so only the wall-clock limit ends
    // this grade; the starter's grade ends well within it, however busy the machine.
    const rubric = path.join(tmp.path, "patient-rubric.json");
    fs.writeFileSync(rubric, JSON.stringify({ ...loadRubric(), limits: { callMs: 120_000, checkMs: 600_000 } }));
    const mark = randomUUID();
    const stopped = await gradeBatch([hang, "--out", path.join(tmp.path, "hang.csv"), "--timeout", "15", "--only", "phase1", "--rubric", rubric], mark);
    expect(stopped.exitCode).toBe(0);
    const [, spins, untouched] = parseCsv(fs.readFileSync(path.join(tmp.path, "hang.csv"), "utf8"));
    expect(spins!.slice(0, 17)).toEqual(["spins", "error", "", "", "", "", "", "", "", "", "", "", "", "", "", "the grade did not finish within 15 s and was stopped", ""]);
    expect(new Set(spins!.slice(17))).toEqual(new Set([""]));
    expect(untouched!.slice(0, 3)).toEqual(["untouched", "graded", "0"]);
    expect(await leftRunning(mark)).toEqual([]);
  });

  test("exits 2, with what it expected, when it cannot run", async () => {
    fs.writeFileSync(path.join(tmp.path, "no-ids.csv"), "submission,name\ncorrect,Ada\n");
    const cases: [string[], RegExp][] = [
      [[subs, "--out", path.join(tmp.path, "x.csv"), "--roster-map", path.join(tmp.path, "no-ids.csv")], /no-ids\.csv: expected one column naming the student's id \(student id, sis id, sid, email\); its header is "submission","name"/],
      [[subs], /--out <file.csv> is required/],
      [[path.join(subs, "nowhere"), "--out", path.join(tmp.path, "x.csv")], /is not a folder/],
      [[subs, "--out", path.join(tmp.path, "x.csv"), "--only", "phase9"], /--only phase9: no such deliverable or check/],
      [[subs, "--out", path.join(tmp.path, "x.csv"), "--jobs", "0"], /--jobs expects a whole number of at least 1, got "0"/],
      [[subs, "--out", path.join(tmp.path, "x.csv"), "--roster-map", path.join(tmp.path, "nowhere.csv")], /could not read the roster map ".*nowhere\.csv": no such file/],
      [[subs, "--out", path.join(tmp.path, "x.csv"), "--roster-map", path.join(tmp.path, "roster-map.csv"), "--shard", "1/2"], /--roster-map maps a whole class, not a shard: give it to the merge/],
    ];
    const runs = await Promise.all(cases.map(([args]) => gradeBatch(args)));
    runs.forEach((r, i) => {
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(cases[i]![1]);
    });
    expect(fs.existsSync(path.join(tmp.path, "x.csv"))).toBe(false);
  });
});
