// The command lines of `npm run report` and `npm run export-student`, each run in this process as
// its command would run it (arguments, output, exit code): every form each accepts, what it makes
// of it, and every message a wrong one gets, word for word.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { formatRows } from "../cli/args.js";
import { usageLines } from "../cli/command-line.js";
import { REPO_ROOT } from "../paths.js";
import { formatOf } from "../report/formats/index.js";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";

afterEach(() => vi.restoreAllMocks());

/** Runs a command's module in this process as `npm run <script> -- argv` would: what it printed and its exit code. */
async function runCommand(file: "../cli/report.js" | "../tools/export-student.js", argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void stdout.push(`${a.join(" ")}\n`));
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void stderr.push(`${a.join(" ")}\n`));
  const saved = process.argv;
  process.argv = [process.execPath, file, ...argv];
  vi.resetModules();
  try {
    const module = file === "../cli/report.js" ? await import("../cli/report.js") : await import("../tools/export-student.js");
    return { code: process.exitCode, stdout: stdout.join(""), stderr: stderr.join(""), module };
  } finally {
    process.argv = saved;
    process.exitCode = undefined;
    vi.restoreAllMocks();
  }
}

describe("npm run report's arguments", () => {
  const USAGE = `Usage: npm run report -- --from <report.json> [options] <format flags> [--points]

${usageLines([
  ["--from <file>", "the JSON report of a grade (npm run grade -- --json <file>)"],
  ["--only <id>", "only this deliverable (repeatable)"],
  ["--rubric <file>", "the rubric the grade used, for a report that is missing"],
  ...formatRows(),
  ["--points", "print the core score as a GitHub Actions annotation (Points X/Y); exit 1 unless every core check passed"],
])}`;
  const MISSING_WHY = "The grade did not finish, so this check has no result: read the grading step's log.";
  let tmp: { path: string; cleanup: () => Promise<void> };
  let saved: string;
  let report: Report;
  let otherRubric: string;
  const at = (name: string) => path.join(tmp.path, name);
  const written = () => Object.fromEntries(fs.readdirSync(at("out")).map((f) => [f, fs.readFileSync(at(`out/${f}`), "utf8")]));
  const render = (flag: string, r: Report, only: string[]) => formatOf(flag)!.render(r, { env: process.env, only });

  beforeAll(async () => {
    tmp = await dir({ unsafeCleanup: true, prefix: "report-args-" });
    // A saved report unlike the rubric's (its ids and points are its own).
    const rubric = loadRubric();
    report = {
      schemaVersion: 6, target: "t", seed: 5, score: 3, maxScore: 4, bonus: 0, maxBonus: 2,
      deliverables: [
        { id: "phase1", title: "P1", kind: "core", status: "graded", points: 3, maxPoints: 3, checks: [{ id: "phase1.x", title: "x", status: "passed", points: 3, maxPoints: 3, crashStates: 1 }] },
        { id: "phase2", title: "P2", kind: "core", status: "graded", points: 0, maxPoints: 1, checks: [{ id: "phase2.y", title: "y", status: "failed", points: 0, maxPoints: 1, message: "lost", replay: "npm run grade -- --only phase2.y", crashStates: 0 }] },
        { id: "bonus1", title: "B", kind: "bonus", status: "graded", points: 0, maxPoints: 2, checks: [{ id: "bonus1.z", title: "z", status: "error", points: 0, maxPoints: 2, message: "boom", crashStates: 0 }] },
      ],
      stats: { crashStates: 1, durationMs: 2 },
    };
    saved = at("saved.json");
    fs.writeFileSync(saved, JSON.stringify(report));
    otherRubric = at("rubric.json");
    fs.writeFileSync(otherRubric, JSON.stringify({ ...rubric, deliverables: rubric.deliverables.map((d) => (d.id === "phase2" ? { ...d, enabled: false } : d)) }));
  });
  afterAll(() => tmp.cleanup());

  /** Runs the command with a clean out/ folder. */
  async function report_(argv: string[]) {
    fs.rmSync(at("out"), { recursive: true, force: true });
    fs.mkdirSync(at("out"));
    return runCommand("../cli/report.js", argv);
  }

  test.each([[["--help"]], [["-h"]], [["--from", "x", "-h"]], [["--from", "x", "--help", "--bogus"]], [["-h", "--bogus"]], [["--junit", "j", "--help"]]])("%j prints the usage", async (argv) => {
    const run = await report_(argv);
    expect(run).toMatchObject({ code: 0, stdout: `${USAGE}\n`, stderr: "" });
    expect(written()).toEqual({});
  });

  const refused: [string[], string][] = [
    [[], "--from <report.json> is required"],
    [["--junit", "OUT/j.xml"], "--from <report.json> is required"],
    [["--only", "phase1"], "--from <report.json> is required"],
    [["--from", "SAVED"], "name at least one format: --markdown, --junit, --classroom50, --gradescope, --html"],
    [["--from", "SAVED", "--only", "phase1", "--rubric", "r.json"], "name at least one format: --markdown, --junit, --classroom50, --gradescope, --html"],
    [["--from"], "--from needs a value"],
    [["--from", "--junit", "OUT/j.xml"], "--from needs a value"],
    [["--from", "--"], "--from needs a value"],
    [["--from", "SAVED", "--only"], "--only needs a value"],
    [["--from", "SAVED", "--rubric"], "--rubric needs a value"],
    [["--from", "SAVED", "--junit"], "--junit needs a value"],
    [["--from", "SAVED", "--markdown", "--junit", "OUT/j.xml"], "--markdown needs a value"],
    [["--bogus"], "--bogus needs a value"],
    [["--bogus", "--from", "SAVED"], "--bogus needs a value"],
    [["--bogus", "x"], 'unknown option "--bogus"'],
    [["--bogus", "-x"], 'unknown option "--bogus"'],
    [["pos"], "pos needs a value"],
    [["pos", "x"], 'unknown option "pos"'],
    [[""], " needs a value"],
    [["", "x"], 'unknown option ""'],
    [["--from=SAVED", "--junit", "OUT/j.xml"], "--from=SAVED needs a value"],
    [["--from=SAVED"], "--from=SAVED needs a value"],
    [["--from=SAVED", "x"], 'unknown option "--from=SAVED" (give its value after a space: --from SAVED)'],
    [["--help=x"], "--help=x needs a value"],
    [["--help=x", "y"], 'unknown option "--help=x" (--help takes no value)'],
    [["--json", "x"], 'unknown option "--json"'],
    [["--target", "x"], 'unknown option "--target"'],
    [["-hx"], "-hx needs a value"],
    [["-hx", "y"], 'unknown option "-hx"'],
    [["-x", "-y"], 'unknown option "-x"'],
    [["-h-"], "-h- needs a value"],
    [["-a-b", "--help"], "-a-b needs a value"],
    [["-a-b", "x"], 'unknown option "-a-b"'],
    [["--"], "-- needs a value"],
    [["--", "x"], 'unknown option "--"'],
    [["--", "--help"], "-- needs a value"],
    [["-", "x"], 'unknown option "-"'],
    [["--h", "x"], 'unknown option "--h"'],
    [["--constructor", "x"], 'unknown option "--constructor"'],
    [["--from", "SAVED", "--junit", "OUT/j.xml", "--bogus"], "--bogus needs a value"],
    [["--from", "SAVED", "--junit", "OUT/j.xml", "--bogus", "b"], 'unknown option "--bogus"'],
    [["--from", "SAVED", "--only", "phase1", "--points"], "--points counts every core deliverable: give it without --only"],
    [["--from", "SAVED", "--points=x", "y"], 'unknown option "--points=x" (--points takes no value)'],
  ];
  test.each(refused)("refuses %j", async (argv, message) => {
    const run = await report_(argv.map((a) => a.replace("SAVED", saved).replace("OUT", at("out"))));
    expect(run).toMatchObject({ code: 2, stdout: "", stderr: `report: ${message.replaceAll("SAVED", saved).replaceAll("OUT", at("out"))}\n\n${USAGE}\n` });
    expect(written()).toEqual({});
  });

  test("writes each format asked for from the saved report, for the deliverables --only names", async () => {
    let run = await report_(["--from", saved, "--junit", at("out/j.xml")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(written()).toEqual({ "j.xml": render("--junit", report, []) });

    run = await report_(["--only", "phase1", "--from", at("none.json"), "--only", "phase2,,bonus1", "--from", saved, "--markdown", at("out/m.md"), "--gradescope", at("out/r.json"), "--junit", at("out/j.xml"), "--junit", at("out/k.xml")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const only = ["phase1", "phase2", "bonus1"];
    expect(written()).toEqual({ "m.md": render("--markdown", report, only), "r.json": render("--gradescope", report, only), "j.xml": render("--junit", report, only), "k.xml": render("--junit", report, only) });
    // Everything formats.test.ts's report renders differs between these selections.
    expect(render("--gradescope", report, only)).not.toBe(render("--gradescope", report, ["phase1"]));

    run = await report_(["--from", saved, "--only", "-h", "--junit", at("out/r.json"), "--gradescope", at("out/g.json")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(written()).toEqual({ "r.json": render("--junit", report, ["-h"]), "g.json": render("--gradescope", report, ["-h"]) });
  });

  test("stands in for a missing report with the rubric's checks as errors (the --rubric given, or the repository's)", async () => {
    let run = await report_(["--from", at("none.json"), "--gradescope", at("out/r.json")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const { missingReport } = run.module as typeof import("../cli/report.js");
    expect(written()).toEqual({ "r.json": render("--gradescope", missingReport(loadRubric(), [], MISSING_WHY), []) });
    const tests = (JSON.parse(written()["r.json"]!) as { tests: { name: string; max_score: number }[] }).tests;
    expect(tests.filter((t) => !t.name.startsWith("(bonus)")).reduce((n, t) => n + t.max_score, 0)).toBe(100);

    run = await report_(["--rubric", otherRubric, "--from", at("none.json"), "--only", "phase1,phase2", "--junit", at("out/j.xml"), "--gradescope", at("out/r.json")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const missing = missingReport(loadRubric(otherRubric), ["phase1", "phase2"], MISSING_WHY);
    expect(missing.deliverables.map((d) => d.id)).toEqual(["phase1"]);
    expect(written()).toEqual({ "j.xml": render("--junit", missing, ["phase1", "phase2"]), "r.json": render("--gradescope", missing, ["phase1", "phase2"]) });
  });

  test("--points prints the core score as the annotation Points X/Y and exits 1 unless every core check passed (a bonus check aside); a missing report is Points 0/100", async () => {
    const NOT_PASSED = "Not every core check passed: the job summary tells each lost point, with its replay command.";
    let run = await report_(["--from", saved, "--points"]);
    expect(run).toMatchObject({ code: 1, stdout: `::notice title=Grade::Points 3/4\n${NOT_PASSED}\n`, stderr: "" });
    expect(written()).toEqual({});

    // Every core check passed: the bonus check's error does not fail the step.
    const passed = at("passed.json");
    const phase2 = { ...report.deliverables[1]!, points: 1, checks: [{ ...report.deliverables[1]!.checks[0]!, status: "passed" as const, points: 1, message: undefined, replay: undefined }] };
    fs.writeFileSync(passed, JSON.stringify({ ...report, score: 4, deliverables: [report.deliverables[0], phase2, report.deliverables[2]] }));
    run = await report_(["--points", "--from", passed, "--junit", at("out/j.xml")]);
    expect(run).toMatchObject({ code: 0, stdout: "::notice title=Grade::Points 4/4\n", stderr: "" });
    expect(Object.keys(written())).toEqual(["j.xml"]);

    run = await report_(["--from", at("none.json"), "--points"]);
    expect(run).toMatchObject({ code: 1, stdout: "::notice title=Grade::Points 0/100\nA core check could not be graded: the job summary says which, and the grading step's log why.\n", stderr: "" });
  });

  test("a format that cannot be written stops with its flag, its file and why", async () => {
    const file = at("out/no-such-folder/j.xml");
    let run = await report_(["--from", saved, "--junit", file]);
    expect(run).toMatchObject({ code: 2, stdout: "", stderr: `report: --junit ${file}: ENOENT: no such file or directory, open '${file}'\n` });

    vi.stubEnv("SUBMISSION_TAG", "");
    try {
      run = await report_(["--from", saved, "--classroom50", at("out/c.json")]);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^report: --classroom50 \S+\/out\/c\.json: Classroom 50's result\.json needs the environment variable/);
  });
});

describe("npm run export-student's arguments", () => {
  const USAGE = `Usage: npm run export-student -- <dir>

Writes the student template repository into <dir>, a new or empty folder outside this repository.`;
  let tmp: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    tmp = await dir({ unsafeCleanup: true, prefix: "export-args-" });
    fs.mkdirSync(path.join(tmp.path, "full"));
    fs.writeFileSync(path.join(tmp.path, "full/a"), "");
    fs.writeFileSync(path.join(tmp.path, "file"), "");
  });
  afterAll(() => tmp.cleanup());

  test.each([[["--help"]], [["-h"]], [["dir", "--help"]], [["--help", "a", "b"]], [["--", "--help"]], [["-x", "-h"]], [["--help=x", "-h"]], [["-a-b", "--help"]], [["-h-", "-h"]]])("%j prints the usage", async (argv) => {
    expect(await runCommand("../tools/export-student.js", argv)).toMatchObject({ code: 0, stdout: `${USAGE}\n`, stderr: "" });
  });

  const refused: [string[], string][] = [
    [[], `expected one folder, got none\n\n${USAGE}`],
    [["a", "b"], `expected one folder, got "a" "b"\n\n${USAGE}`],
    [["-x"], `expected one folder, got "-x"\n\n${USAGE}`],
    [["-"], `expected one folder, got "-"\n\n${USAGE}`],
    [["--"], `expected one folder, got "--"\n\n${USAGE}`],
    [["--", "dir"], `expected one folder, got "--" "dir"\n\n${USAGE}`],
    [["--help=x"], `expected one folder, got "--help=x"\n\n${USAGE}`],
    [["-hx"], `expected one folder, got "-hx"\n\n${USAGE}`],
    [["-a-b"], `expected one folder, got "-a-b"\n\n${USAGE}`],
    [["-h-", "dir"], `expected one folder, got "-h-" "dir"\n\n${USAGE}`],
    [["--h"], `expected one folder, got "--h"\n\n${USAGE}`],
    [["--out", "dir"], `expected one folder, got "--out" "dir"\n\n${USAGE}`],
    [["--dir=x"], `expected one folder, got "--dir=x"\n\n${USAGE}`],
    [["dir", ""], `expected one folder, got "dir" ""\n\n${USAGE}`],
    [[path.join(REPO_ROOT, "somewhere")], `${JSON.stringify(path.join(REPO_ROOT, "somewhere"))} is inside this repository; expected a folder outside it`],
    [["FULL"], `"FULL" is not empty (it holds 1 entry); expected a new or empty folder`],
    [["FILE"], `"FILE" is a file; expected a new or empty folder`],
  ];
  test.each(refused)("refuses %j", async (argv, message) => {
    const real = (s: string) => s.replace("FULL", path.join(tmp.path, "full")).replace("FILE", path.join(tmp.path, "file"));
    expect(await runCommand("../tools/export-student.js", argv.map(real))).toMatchObject({ code: 2, stdout: "", stderr: `export-student: ${real(message)}\n` });
    expect(fs.readdirSync(tmp.path).sort()).toEqual(["file", "full"]);
  });

  test('"" is the current folder', async () => {
    const run = await runCommand("../tools/export-student.js", [""]);
    expect(process.cwd().startsWith(REPO_ROOT)).toBe(true);
    expect(run).toMatchObject({ code: 2, stdout: "", stderr: 'export-student: "" is inside this repository; expected a folder outside it\n' });
  });
});
