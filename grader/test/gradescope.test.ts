// The Gradescope autograder: `npm run gradescope-zip` packs a commit (never a working tree that
// differs from it, unless told to) without solution/, and run_autograder, on a simulated
// /autograder layout whose source/ is that zip unpacked (as setup.sh leaves it, with the
// repository's packages in place of npm ci), submission/ (what the student uploaded) and
// results/, writes a results.json that carries the JSON report's core score and one visible test
// per check, whatever shape the submission has, even when the grade cannot finish.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { GradescopeResults } from "../report/formats/gradescope.js";
import { readBuildFile } from "../report/graded-with.js";
import type { Report } from "../report/report.js";
import { copyRepository, labFiles, putFiles, tsFiles } from "./support/checkout.js";

/** A git repository holding this one's files in one commit, as an instructor's clone has them. */
interface Clone {
  path: string;
  commit: string;
  cleanup: () => Promise<void>;
}

async function committedClone(): Promise<Clone> {
  const clone = await dir({ unsafeCleanup: true, prefix: "gradescope-clone-" });
  await copyRepository(clone.path);
  const git = (...args: string[]) => execa("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], { cwd: clone.path });
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-q", "-m", "the lab");
  return { path: clone.path, commit: (await git("rev-parse", "HEAD")).stdout.trim(), cleanup: clone.cleanup };
}

/** Runs `npm run gradescope-zip -- args` in `clone` (as npm would: bash, from the repository); never throws for a non-zero exit. */
function makeZip(clone: string, args: string[]) {
  return execa("bash", [path.join(clone, "gradescope", "make-zip.sh"), ...args], { cwd: clone, reject: false, env: { INIT_CWD: clone } });
}

/** The files a zip holds, sorted. */
async function zipFiles(zip: string): Promise<string[]> {
  const { stdout } = await execa("unzip", ["-Z1", zip]);
  return stdout.split("\n").filter((f) => f && !f.endsWith("/")).sort();
}

let clone: Clone;
let zip: string;
beforeAll(async () => {
  clone = await committedClone();
  zip = path.join(clone.path, "..", `${path.basename(clone.path)}.zip`);
  const made = await makeZip(clone.path, [zip]);
  if (made.exitCode !== 0) throw new Error(`gradescope-zip exited ${made.exitCode}: ${made.stderr}`);
});
afterAll(async () => {
  fs.rmSync(zip, { force: true });
  await clone?.cleanup();
});

interface GradescopeRun {
  exitCode: number;
  stdout: string;
  results: GradescopeResults | null;
  /** The JSON report the grade left in source/. */
  report: Report | null;
}

/** Lays out /autograder in a temp folder, source/ from the zip, lets `submit` fill submission/, and runs run_autograder there. */
async function runAutograder(submit: (submission: string) => void, env: Record<string, string> = {}): Promise<GradescopeRun> {
  const root = await dir({ unsafeCleanup: true, prefix: "gradescope-" });
  try {
    const source = path.join(root.path, "source");
    await execa("unzip", ["-q", zip, "-d", source]);
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(source, "node_modules"), "dir");
    fs.mkdirSync(path.join(root.path, "results"));
    fs.mkdirSync(path.join(root.path, "submission"));
    submit(path.join(root.path, "submission"));
    const run = await execa(path.join(source, "run_autograder"), [], { cwd: root.path, env: { AUTOGRADER_ROOT: root.path, NO_COLOR: "1", ...env }, reject: false, all: true });
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
    // The zip has no git: what graded it is the commit the zip was made from.
    expect(run.report!.gradedWith).toEqual({ node: process.version, commit: clone.commit, dirty: false });
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
    expect(complete.output).toMatch(/^starter\/runner\.ts does not compile: runner\.ts:\d+:\d+: /);
    // Replays name no target: the student runs them in their own repository, on starter/.
    expect(complete.output).toMatch(/\nPartial grade: npm run grade -- --only phase1,phase2\.complete-run --seed \d+/);
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

describe("npm run gradescope-zip", () => {
  test("packs the commit without solution/, the fixtures or the grader's tests, with setup.sh and run_autograder at its root and grader/BUILD.json naming the commit", async () => {
    const files = await zipFiles(zip);
    const { stdout } = await execa("git", ["ls-files"], { cwd: clone.path });
    const committed = stdout.split("\n").filter(Boolean);
    const leftOut = (f: string) => ["solution/", "grader/fixtures/", "grader/test/"].some((folder) => f.startsWith(folder));
    for (const folder of ["solution/", "grader/fixtures/correct/", "grader/test/"]) expect(committed.filter((f) => f.startsWith(folder)).length, folder).toBeGreaterThan(0);
    expect(files).toEqual([...committed.filter((f) => !leftOut(f)), "setup.sh", "run_autograder", "grader/BUILD.json"].sort());
    const unpacked = await dir({ unsafeCleanup: true });
    try {
      await execa("unzip", ["-q", zip, "-d", unpacked.path]);
      expect(readBuildFile(unpacked.path)).toEqual({ commit: clone.commit, dirty: false });
      expect(fs.statSync(path.join(unpacked.path, "run_autograder")).mode & 0o111).toBe(0o111);
    } finally {
      await unpacked.cleanup();
    }
  });

  test("refuses a working tree whose packed files differ from the commit, naming each, and writes nothing; --allow-dirty packs them as they are and says dirty; solution/ does not count", async () => {
    const dirty = await committedClone();
    try {
      const out = path.join(dirty.path, "dirty.zip");
      fs.appendFileSync(path.join(dirty.path, "grader/rubric.json"), " ");
      fs.writeFileSync(path.join(dirty.path, "lab/notes.ts"), "export {};\n");
      fs.rmSync(path.join(dirty.path, "HANDOUT.md"));
      fs.appendFileSync(path.join(dirty.path, "solution/checkpoint.ts"), "\n");
      const refused = await makeZip(dirty.path, [out]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(/^gradescope-zip: nothing written: 3 files the zip would hold differ from the last commit/);
      for (const line of [" D HANDOUT.md", " M grader/rubric.json", "?? lab/notes.ts"]) expect(refused.stderr).toContain(`\n  ${line}\n`);
      expect(refused.stderr).not.toContain("solution/");
      expect(refused.stderr).toContain("npm run gradescope-zip -- --allow-dirty");
      expect(fs.existsSync(out)).toBe(false);

      const packed = await makeZip(dirty.path, ["--allow-dirty", out]);
      expect(packed.exitCode, packed.stderr).toBe(0);
      expect(packed.stdout).toContain(`from commit ${dirty.commit.slice(0, 7)} with the uncommitted changes of the working tree`);
      const files = await zipFiles(out);
      expect(files).toContain("lab/notes.ts");
      expect(files).not.toContain("HANDOUT.md");
      expect(files).not.toContain("dirty.zip");
      expect(files.filter((f) => f.startsWith("solution/") || f.startsWith("node_modules/"))).toEqual([]);
      expect((await execa("unzip", ["-p", out, "grader/rubric.json"], { stripFinalNewline: false })).stdout).toBe(fs.readFileSync(path.join(dirty.path, "grader/rubric.json"), "utf8"));
      expect(JSON.parse((await execa("unzip", ["-p", out, "grader/BUILD.json"])).stdout)).toMatchObject({ commit: dirty.commit, dirty: true });

      // A change to solution/ alone: the zip is the commit's.
      await execa("git", ["checkout", "-q", "--", "grader/rubric.json", "HANDOUT.md"], { cwd: dirty.path });
      fs.rmSync(path.join(dirty.path, "lab/notes.ts"));
      const clean = await makeZip(dirty.path, [out]);
      expect(clean.exitCode, clean.stderr).toBe(0);
      expect(JSON.parse((await execa("unzip", ["-p", out, "grader/BUILD.json"])).stdout)).toMatchObject({ commit: dirty.commit, dirty: false });
    } finally {
      await dirty.cleanup();
    }
  });
});
