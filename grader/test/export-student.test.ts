// `npm run export-student`: the template holds what a student needs, no line of the reference
// solution, grades the untouched starter to 0 with nothing but the template's own grader, and
// grades a submission exactly as this repository's grader does (the same stand-ins for earlier files).
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { distinctiveSolutionLines, findSolutionLines } from "../tools/export/solution-lines.js";
import { filesBelow } from "../tools/export/template.js";
import { modifiedFiles, pristineDigests } from "../tools/batch/modified.js";
import { gitBuild, readBuildFile } from "../report/graded-with.js";

/** Runs `npm run <script> -- args` in `cwd`; never throws for a non-zero exit. */
function npmRun(cwd: string, script: string, args: string[]) {
  return execa("npm", ["run", "--silent", script, "--", ...args], { cwd, reject: false, env: { NO_COLOR: "1" } });
}

describe("the student template", () => {
  let out: { path: string; cleanup: () => Promise<void> };
  let template: string;
  let exported: Awaited<ReturnType<typeof npmRun>>;

  beforeAll(async () => {
    out = await dir({ unsafeCleanup: true, prefix: "template-" });
    template = path.join(out.path, "student");
    exported = await npmRun(REPO_ROOT, "export-student", [template]);
  });
  afterAll(() => out.cleanup());

  test("holds the grader, the lab, the starter and the handout, and nothing the instructor keeps", () => {
    expect(exported.stderr).toBe("");
    expect(exported.exitCode).toBe(0);
    const files = filesBelow(template, ".");
    for (const wanted of ["grader/cli/launch.mjs", "grader/rubric.json", "lab/task.ts", "starter/checkpoint.ts", "HANDOUT.md", "README.md", "package-lock.json", "tsconfig.json", ".gitignore"]) expect(files).toContain(wanted);
    for (const folder of ["solution/", "grader/fixtures/", "grader/test/", "grader/tools/"]) expect(files.filter((f) => f.startsWith(folder))).toEqual([]);
    expect(files).not.toContain("vitest.config.ts");
    // Whatever the course adds to .github/ and .devcontainer/ goes along, except the grader's own CI and the instructor's regrade.
    const instructorOnly = [".github/workflows/ci.yml", ".github/workflows/regrade.yml"];
    for (const f of instructorOnly) expect(files).not.toContain(f);
    const courseFiles = [...filesBelow(REPO_ROOT, ".github"), ...filesBelow(REPO_ROOT, ".devcontainer")].filter((f) => !instructorOnly.includes(f));
    expect(files.filter((f) => f.startsWith(".github/") || f.startsWith(".devcontainer/")).sort()).toEqual(courseFiles.sort());
    const pkg = JSON.parse(fs.readFileSync(path.join(template, "package.json"), "utf8"));
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(["grade", "typecheck"]));
    for (const gone of ["test", "test:submissions", "test:model", "soak", "bench", "export-student", "grade-batch", "regrade"]) expect(pkg.scripts).not.toHaveProperty(gone);
    // The push workflow it carries runs npm scripts of its own (report gives the points): each is there.
    const run = filesBelow(template, ".github/workflows").flatMap((f) => [...fs.readFileSync(path.join(template, f), "utf8").matchAll(/npm run (?:--silent )?([\w:-]+)/g)].map((m) => m[1]!));
    expect(run).toEqual(expect.arrayContaining(["grade", "report"]));
    for (const script of run) expect(Object.keys(pkg.scripts), `npm run ${script}`).toContain(script);
    // Every file a script names is in the template.
    const named = Object.values(pkg.scripts as Record<string, string>).flatMap((c) => c.match(/[\w.-]+\/[\w./-]+/g) ?? []);
    for (const file of named) expect(files).toContain(file);
    expect(pkg.devDependencies).toEqual(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).devDependencies);
    expect(fs.readFileSync(path.join(template, "README.md"), "utf8")).toMatch(/npm run grade/);
  });

  test("records in grader/BUILD.json the commit it was made from, and a clone holding it is not a modified grader", () => {
    const head = gitBuild(REPO_ROOT, ["."])!;
    expect(readBuildFile(template)).toMatchObject({ commit: head.commit });
    expect(exported.stdout).toContain(`grader/BUILD.json records commit ${head.commit.slice(0, 7)}`);
    expect(modifiedFiles(template, pristineDigests(REPO_ROOT))).toEqual([]);
  });

  test("holds no line of the reference solution", () => {
    const lines = distinctiveSolutionLines(REPO_ROOT);
    expect(lines.length).toBeGreaterThan(50);
    // The search finds every line where it is: in the solution itself.
    const solution = filesBelow(REPO_ROOT, "solution").map((f) => ({ path: f, content: fs.readFileSync(path.join(REPO_ROOT, f)) }));
    expect(findSolutionLines(solution, lines).length).toBeGreaterThanOrEqual(lines.length);
    const files = filesBelow(template, ".").map((f) => ({ path: f, content: fs.readFileSync(path.join(template, f)) }));
    expect(findSolutionLines(files, lines)).toEqual([]);
  });

  test("refuses a folder that is not empty", async () => {
    const again = await npmRun(REPO_ROOT, "export-student", [template]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/is not empty .*expected a new or empty folder/);
  });

  test("grades the untouched starter to 0 with its own grader", async () => {
    // The template as a student has it after `npm ci` (the same packages; no network in tests).
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(template, "node_modules"), "dir");
    const [graded, typecheck] = await Promise.all([npmRun(template, "grade", ["--json", "report.json"]), npmRun(template, "typecheck", [])]);
    expect(typecheck.stdout + typecheck.stderr).toBe("");
    expect(typecheck.exitCode).toBe(0);
    expect(graded.stderr).toBe("");
    expect(graded.exitCode).toBe(1);
    const report = JSON.parse(fs.readFileSync(path.join(template, "report.json"), "utf8")) as Report;
    expect(report).toMatchObject({ schemaVersion: 6, target: "starter", score: 0, maxScore: 100, bonus: 0, maxBonus: 50 });
    // The template has no git of its own: what graded it is the commit BUILD.json records.
    expect(report.gradedWith).toEqual({ node: process.version, ...readBuildFile(template) });
    const checks = report.deliverables.flatMap((d) => d.checks);
    expect(checks.length).toBe(loadRubric().deliverables.filter((d) => d.enabled).flatMap((d) => d.checks).length);
    for (const c of checks) {
      expect(c.points).toBe(0);
      expect(c.message).toMatch(c.status === "blocked" ? /^Scored only once (\S+ passes; fix that|\S+( and \S+)+ pass; fix those) first\./ : /not implemented yet/);
      expect(c.message).not.toMatch(/reference/i);
    }
    expect(graded.stdout).toContain("Score 0/100");
  });

  test("grades a buggy checkpoint.ts under a correct runner.ts as this repository does: the same points and messages for Phase 2, passed with the stand-in checkpoint.ts where Phase 1 lost points", async () => {
    if (!fs.existsSync(path.join(template, "node_modules"))) fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(template, "node_modules"), "dir");
    const submission = path.join(out.path, "submission");
    fs.cpSync(path.join(REPO_ROOT, "solution"), submission, { recursive: true });
    fs.cpSync(path.join(REPO_ROOT, "grader", "fixtures", "phase1", "write-in-place", "checkpoint.ts"), path.join(submission, "checkpoint.ts"));
    const grade = async (cwd: string, json: string) => {
      const r = await npmRun(cwd, "grade", ["--target", submission, "--only", "phase1,phase2", "--no-cache", "--json", json]);
      // Phase 1 loses points: exit 1, the grade having run.
      expect(r.exitCode, r.stderr).toBe(1);
      return JSON.parse(fs.readFileSync(json, "utf8")) as Report;
    };
    const [inTemplate, here] = [await grade(template, path.join(out.path, "t.json")), await grade(REPO_ROOT, path.join(out.path, "r.json"))];
    const phase2 = (r: Report) => r.deliverables.find((d) => d.id === "phase2")!.checks.map((c) => ({ id: c.id, status: c.status, points: c.points, message: c.message }));
    expect(phase2(inTemplate)).toEqual(phase2(here));
    expect(inTemplate.deliverables.find((d) => d.id === "phase2")!.points).toBe(35);
    expect(phase2(inTemplate).filter((c) => c.message?.startsWith("Passed with the stand-in checkpoint.ts.")).map((c) => c.id)).toEqual(["phase2.crash-anywhere", "phase2.crash-schedules"]);
  });
});
