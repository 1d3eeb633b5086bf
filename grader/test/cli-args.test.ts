// The command lines of `npm run grade`, `npm run grade-batch`, `npm run report` and
// `npm run export-student`: every form each accepts, what it makes of it, and every message a
// wrong one gets, word for word. The first two are parsers of their own; the last two are run
// in this process as their command would run them (arguments, output, exit code).
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { formatRows, parseArgs, unknownSelections, USAGE, type GradeArgs } from "../cli/args.js";
import { usageLines } from "../cli/command-line.js";
import { REPO_ROOT } from "../paths.js";
import { FORMATS, formatOf } from "../report/formats/index.js";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { parseBatchArgs, type BatchArgs } from "../tools/batch/args.js";

/** The message of what `run` throws (the test fails when it throws nothing). */
function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error, none was thrown");
}

const grade = (over: Partial<GradeArgs> = {}): GradeArgs => ({ target: "starter", only: [], outputs: [], noCache: false, watch: false, help: false, ...over });
/** What `--seed random` picks while Math.random returns 0.25. */
const RANDOM_SEED = Math.floor(0.25 * 2 ** 31);

afterEach(() => vi.restoreAllMocks());

describe("npm run grade's arguments", () => {
  const accepted: [string[], GradeArgs][] = [
    [[], grade()],
    [["--target", "solution"], grade({ target: "solution" })],
    [["--no-cache"], grade({ noCache: true })],
    [["--watch", "--only", "phase1"], grade({ watch: true, only: ["phase1"] })],
    [["--target=solution"], grade({ target: "solution" })],
    [["--target="], grade({ target: "" })],
    [["--target", "-x"], grade({ target: "-x" })],
    [["--target", "-h"], grade({ target: "-h" })],
    [["--target=--x"], grade({ target: "--x" })],
    [["--target=a=b"], grade({ target: "a=b" })],
    [["--target", "a", "--target", "b"], grade({ target: "b" })],
    [["--json", "r.json"], grade({ json: "r.json" })],
    [["--json=r.json"], grade({ json: "r.json" })],
    [["--json", "-"], grade({ json: "-" })],
    [["--json==x"], grade({ json: "=x" })],
    [["--rubric", "r.json"], grade({ rubric: "r.json" })],
    [["--rubric=r.json", "--rubric", "s.json"], grade({ rubric: "s.json" })],
    [["--only", "phase1"], grade({ only: ["phase1"] })],
    [["--only", "phase1", "--only", "phase2.crash-anywhere"], grade({ only: ["phase1", "phase2.crash-anywhere"] })],
    [["--only", "a,b,,c", "--only=d"], grade({ only: ["a", "b", "c", "d"] })],
    [["--only="], grade()],
    [["--only", ","], grade()],
    [["--only", "-x"], grade({ only: ["-x"] })],
    [["--seed", "42"], grade({ seed: 42 })],
    [["--seed=007"], grade({ seed: 7 })],
    [["--seed", "0"], grade({ seed: 0 })],
    [["--seed", "9007199254740991"], grade({ seed: 9007199254740991 })],
    [["--seed", "1", "--seed", "2"], grade({ seed: 2 })],
    [["--seed", "random"], grade({ seed: RANDOM_SEED })],
    [["--seed=random"], grade({ seed: RANDOM_SEED })],
    [["--only", "phase1.crash-safety", "--seed", "20261129", "--replay", "0"], grade({ only: ["phase1.crash-safety"], seed: 20261129, replay: "0" })],
    [["--replay=x/y", "--only=a"], grade({ only: ["a"], replay: "x/y" })],
    [["--replay="], grade({ replay: "" })],
    [["--help"], grade({ help: true })],
    [["-h"], grade({ help: true })],
    [["--help=yes"], grade({ help: true })],
    [["--help", "--help", "--target", "x"], grade({ help: true, target: "x" })],
    [["--junit", "j.xml"], grade({ outputs: [{ flag: "--junit", file: "j.xml" }] })],
    [["--markdown=m.md"], grade({ outputs: [{ flag: "--markdown", file: "m.md" }] })],
    [["--junit", "a", "--markdown", "b", "--junit=c"], grade({ outputs: [{ flag: "--junit", file: "a" }, { flag: "--markdown", file: "b" }, { flag: "--junit", file: "c" }] })],
    [FORMATS.flatMap((f) => [f.flag, `${f.flag.slice(2)}.out`]), grade({ outputs: FORMATS.map((f) => ({ flag: f.flag, file: `${f.flag.slice(2)}.out` })) })],
    [
      ["--target", "t", "--json", "r.json", "--markdown", "s.md", "--junit", "j.xml", "--gradescope", "g.json", "--classroom50", "c.json", "--runner-result", "rr.json", "--rubric", "ru.json", "--only", "phase1", "--seed", "3"],
      grade({
        target: "t", json: "r.json", rubric: "ru.json", only: ["phase1"], seed: 3,
        outputs: [{ flag: "--markdown", file: "s.md" }, { flag: "--junit", file: "j.xml" }, { flag: "--gradescope", file: "g.json" }, { flag: "--classroom50", file: "c.json" }, { flag: "--runner-result", file: "rr.json" }],
      }),
    ],
  ];
  test.each(accepted)("accepts %j", (argv, expected) => {
    vi.spyOn(Math, "random").mockReturnValue(0.25);
    expect(parseArgs(argv)).toStrictEqual(expected);
  });

  const refused: [string[], string][] = [
    [["--target"], "--target needs a value"],
    [["--target", "--json", "x"], "--target needs a value"],
    [["--target", "--"], "--target needs a value"],
    [["--json"], "--json needs a value"],
    [["--rubric"], "--rubric needs a value"],
    [["--replay"], "--replay needs a value"],
    [["--only"], "--only needs a value"],
    [["--only", "--seed", "1"], "--only needs a value"],
    [["--seed"], "--seed needs a value"],
    [["--junit"], "--junit needs a value"],
    [["--runner-result", "--markdown", "m.md"], "--runner-result needs a value"],
    [["--seed", "x"], '--seed expects a whole number or "random", got "x"'],
    [["--seed", "-1"], '--seed expects a whole number or "random", got "-1"'],
    [["--seed", "1.5"], '--seed expects a whole number or "random", got "1.5"'],
    [["--seed", " 1"], '--seed expects a whole number or "random", got " 1"'],
    [["--seed", "9007199254740992"], '--seed expects a whole number or "random", got "9007199254740992"'],
    [["--seed="], '--seed expects a whole number or "random", got ""'],
    [["--seed", "Random"], '--seed expects a whole number or "random", got "Random"'],
    [["--bogus"], 'unknown option "--bogus"'],
    [["--bogus=x"], 'unknown option "--bogus=x"'],
    [["--bogus", "x"], 'unknown option "--bogus"'],
    [["solution"], 'unknown option "solution"'],
    [[""], 'unknown option ""'],
    [["-"], 'unknown option "-"'],
    [["--"], 'unknown option "--"'],
    [["--", "--help"], 'unknown option "--"'],
    [["--target", "x", "--"], 'unknown option "--"'],
    [["-x"], 'unknown option "-x"'],
    [["-1"], 'unknown option "-1"'],
    [["-hx"], 'unknown option "-hx"'],
    [["-xh"], 'unknown option "-xh"'],
    [["-h=x"], 'unknown option "-h=x"'],
    [["-a-b", "--target", "t"], 'unknown option "-a-b"'],
    [["-h-"], 'unknown option "-h-"'],
    [["- - "], 'unknown option "- - "'],
    [["--target", "t", "-x-", "--help"], 'unknown option "-x-"'],
    [["--h"], 'unknown option "--h"'],
    [["--=x"], 'unknown option "--=x"'],
    [["--="], 'unknown option "--="'],
    [["---target", "x"], 'unknown option "---target" (did you mean --target?)'],
    [["--Target", "x"], 'unknown option "--Target" (did you mean --target?)'],
    [["--onyl", "phase1"], 'unknown option "--onyl" (did you mean --only?)'],
    [["--juint=j.xml"], 'unknown option "--juint=j.xml" (did you mean --junit?)'],
    [["--no-help"], 'unknown option "--no-help"'],
    [["--constructor"], 'unknown option "--constructor"'],
    [["--__proto__"], 'unknown option "--__proto__"'],
    [["--toString"], 'unknown option "--toString"'],
    [["--from", "r.json"], 'unknown option "--from"'],
    [["-h", "--bogus"], 'unknown option "--bogus"'],
    [["--seed", "x", "--bogus"], '--seed expects a whole number or "random", got "x"'],
    [["--bogus", "--seed", "x"], 'unknown option "--bogus"'],
    [["--replay", "1"], "--replay replays one check: give exactly one --only <check id>"],
    [["--replay", "1", "--only", "a,b"], "--replay replays one check: give exactly one --only <check id>"],
    [["--replay", "1", "--only", "a", "--only", "b"], "--replay replays one check: give exactly one --only <check id>"],
    [["--replay", "1", "--only", "a", "--bogus"], 'unknown option "--bogus"'],
  ];
  test.each(refused)("refuses %j", (argv, message) => {
    expect(thrown(() => parseArgs(argv))).toBe(message);
  });

  test("the usage text's flags stand in one column, and no line is wider than 80 characters", () => {
    const lines = USAGE.split("\n").filter((l) => l.startsWith("  "));
    const column = (l: string) => /^ +\S.*?\s{2,}(?=\S)/.exec(l)?.[0].length ?? l.search(/\S/);
    expect(new Set(lines.map(column)).size).toBe(1);
    expect(Math.max(...USAGE.split("\n").map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  test("an --only id that is not in the rubric is named, with the one id it is a typo of", () => {
    const rubric = loadRubric();
    expect(unknownSelections(rubric, ["phase1", "phase1.crash-safety"])).toBeNull();
    expect(unknownSelections(rubric, ["phase1.crash-safty", "phase9", "power-los"])).toBe(
      "--only phase1.crash-safty (did you mean phase1.crash-safety?), phase9, power-los (did you mean power-loss?): no such deliverable or check in the rubric",
    );
  });

  test("--seed random draws a new seed each time", () => {
    vi.spyOn(Math, "random").mockReturnValueOnce(0).mockReturnValueOnce(0.999);
    expect(parseArgs(["--seed", "random"]).seed).toBe(0);
    expect(parseArgs(["--seed", "random"]).seed).toBe(Math.floor(0.999 * 2 ** 31));
  });
});

describe("npm run grade-batch's arguments", () => {
  const batch = (over: Partial<BatchArgs> = {}): BatchArgs => ({ help: false, submissions: "subs", out: "g.csv", gradeArgs: [], only: [], ...over });
  const HELP = { help: true, submissions: "", out: "", gradeArgs: [], only: [] };
  const accepted: [string[], BatchArgs][] = [
    [["subs", "--out", "g.csv"], batch()],
    [["--out", "g.csv", "subs"], batch()],
    [["--out", "a.csv", "subs", "--out", "g.csv"], batch()],
    [["subs", "--out", "-g.csv"], batch({ out: "-g.csv" })],
    [["", "--out", "g.csv"], batch({ submissions: "" })],
    [["subs", "--out", "g.csv", "--jobs", "2"], batch({ jobs: 2 })],
    [["subs", "--out", "g.csv", "--jobs", "02", "--jobs", "3"], batch({ jobs: 3 })],
    [["subs", "--out", "g.csv", "--timeout", "30"], batch({ timeoutMs: 30_000 })],
    [["subs", "--out", "g.csv", "--rubric", "r.json"], batch({ rubric: "r.json" })],
    [["subs", "--out", "g.csv", "--rubric", "-r"], batch({ rubric: "-r" })],
    [["subs", "--out", "g.csv", "--seed", "5"], batch({ gradeArgs: ["--seed", "5"] })],
    [["subs", "--out", "g.csv", "--seed", "007"], batch({ gradeArgs: ["--seed", "7"] })],
    [["subs", "--out", "g.csv", "--seed", "1", "--seed", "2"], batch({ gradeArgs: ["--seed", "2"] })],
    [["subs", "--out", "g.csv", "--seed", "random"], batch({ gradeArgs: ["--seed", String(RANDOM_SEED)] })],
    [["subs", "--out", "g.csv", "--only", "a,b", "--only", "c"], batch({ gradeArgs: ["--only", "a", "--only", "b", "--only", "c"], only: ["a", "b", "c"] })],
    [["subs", "--out", "g.csv", "--only", "-x"], batch({ gradeArgs: ["--only", "-x"], only: ["-x"] })],
    [["subs", "--out", "g.csv", "--only", ""], batch()],
    [
      ["--jobs", "4", "--timeout", "600", "--seed", "9", "--only", "phase1", "--rubric", "r.json", "--out", "g.csv", "subs"],
      batch({ jobs: 4, timeoutMs: 600_000, rubric: "r.json", gradeArgs: ["--seed", "9", "--only", "phase1"], only: ["phase1"] }),
    ],
    [["--help"], HELP],
    [["-h"], HELP],
    [["--help", "a", "b"], HELP],
    [["--help", "--seed", "x"], HELP],
    [["-h", "--out", "x", "--jobs", "3", "--timeout", "2", "--rubric", "r"], { ...HELP, jobs: 3, timeoutMs: 2000, rubric: "r" }],
    [["subs", "--out", "g.csv", "--help"], HELP],
  ];
  test.each(accepted)("accepts %j", (argv, expected) => {
    vi.spyOn(Math, "random").mockReturnValue(0.25);
    expect(parseBatchArgs(argv)).toStrictEqual(expected);
  });

  const refused: [string[], string][] = [
    [[], "expected one submissions folder, got none"],
    [["--out", "g.csv"], "expected one submissions folder, got none"],
    [["a", "b", "--out", "g.csv"], 'expected one submissions folder, got "a" "b"'],
    [["a", ""], 'expected one submissions folder, got "a" ""'],
    [["a", "b"], 'expected one submissions folder, got "a" "b"'],
    [["subs"], "--out <file.csv> is required: where to write the gradebook"],
    [["subs", "--out", ""], "--out <file.csv> is required: where to write the gradebook"],
    [["subs", "--out"], "--out needs a value"],
    [["subs", "--out", "--jobs", "2"], "--out needs a value"],
    [["subs", "--out", "--"], "--out needs a value"],
    [["subs", "--rubric"], "--rubric needs a value"],
    [["subs", "--jobs"], "--jobs needs a value"],
    [["subs", "--timeout"], "--timeout needs a value"],
    [["subs", "--seed"], "--seed needs a value"],
    [["subs", "--only"], "--only needs a value"],
    [["subs", "--only", "--out", "g.csv"], "--only needs a value"],
    [["--out=g.csv", "subs"], 'unknown option "--out=g.csv" (give its value after a space: --out g.csv)'],
    [["--help=1"], 'unknown option "--help=1" (--help takes no value)'],
    [["--bogus"], 'unknown option "--bogus"'],
    [["--bogus", "x"], 'unknown option "--bogus"'],
    [["--json", "x"], 'unknown option "--json"'],
    [["--replay", "1"], 'unknown option "--replay"'],
    [["-"], 'unknown option "-"'],
    [["--"], 'unknown option "--"'],
    [["--", "subs"], 'unknown option "--"'],
    [["-x"], 'unknown option "-x"'],
    [["-1"], 'unknown option "-1"'],
    [["-hx"], 'unknown option "-hx"'],
    [["-a-b", "subs"], 'unknown option "-a-b"'],
    [["-h-", "--help"], 'unknown option "-h-"'],
    [["--h"], 'unknown option "--h"'],
    [["--constructor"], 'unknown option "--constructor"'],
    [["--help", "--bogus"], 'unknown option "--bogus"'],
    [["subs", "--out", "g.csv", "--jobs", "0"], '--jobs expects a whole number of at least 1, got "0"'],
    [["subs", "--out", "g.csv", "--jobs", "x"], '--jobs expects a whole number of at least 1, got "x"'],
    [["subs", "--out", "g.csv", "--jobs", "1.5"], '--jobs expects a whole number of at least 1, got "1.5"'],
    [["subs", "--out", "g.csv", "--jobs", "-2"], '--jobs expects a whole number of at least 1, got "-2"'],
    [["subs", "--out", "g.csv", "--jobs", ""], '--jobs expects a whole number of at least 1, got ""'],
    [["subs", "--out", "g.csv", "--timeout", "0"], '--timeout expects a whole number of at least 1, got "0"'],
    [["subs", "--out", "g.csv", "--timeout", " 5"], '--timeout expects a whole number of at least 1, got " 5"'],
    [["--help", "--jobs", "0"], '--jobs expects a whole number of at least 1, got "0"'],
    [["a", "b", "--jobs", "0"], '--jobs expects a whole number of at least 1, got "0"'],
    [["--jobs", "0", "--bogus"], '--jobs expects a whole number of at least 1, got "0"'],
    [["--bogus", "--jobs", "0"], 'unknown option "--bogus"'],
    [["subs", "--out", "g.csv", "--seed", "x"], '--seed expects a whole number or "random", got "x"'],
    [["subs", "--out", "g.csv", "--seed", "-1"], '--seed expects a whole number or "random", got "-1"'],
    [["a", "b", "--seed", "x"], 'expected one submissions folder, got "a" "b"'],
    [["subs", "--seed", "x"], "--out <file.csv> is required: where to write the gradebook"],
  ];
  test.each(refused)("refuses %j", (argv, message) => {
    expect(thrown(() => parseBatchArgs(argv))).toBe(message);
  });
});

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
  const USAGE = `Usage: npm run report -- --from <report.json> [options] <format flags>

${usageLines([
  ["--from <file>", "the JSON report of a grade (npm run grade -- --json <file>)"],
  ["--only <id>", "only this deliverable (repeatable)"],
  ["--rubric <file>", "the rubric the grade used, for a report that is missing"],
  ...formatRows(),
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
      schemaVersion: 3, target: "t", seed: 5, score: 3, maxScore: 4, bonus: 0, maxBonus: 2,
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
    [["--from", "SAVED"], "name at least one format: --runner-result, --markdown, --junit, --classroom50, --gradescope"],
    [["--from", "SAVED", "--only", "phase1", "--rubric", "r.json"], "name at least one format: --runner-result, --markdown, --junit, --classroom50, --gradescope"],
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

    run = await report_(["--only", "phase1", "--from", at("none.json"), "--only", "phase2,,bonus1", "--from", saved, "--markdown", at("out/m.md"), "--runner-result", at("out/r.json"), "--junit", at("out/j.xml"), "--junit", at("out/k.xml")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const only = ["phase1", "phase2", "bonus1"];
    expect(written()).toEqual({ "m.md": render("--markdown", report, only), "r.json": render("--runner-result", report, only), "j.xml": render("--junit", report, only), "k.xml": render("--junit", report, only) });
    // Everything formats.test.ts's report renders differs between these selections.
    expect(render("--runner-result", report, only)).not.toBe(render("--runner-result", report, ["phase1"]));

    run = await report_(["--from", saved, "--only", "-h", "--runner-result", at("out/r.json"), "--gradescope", at("out/g.json")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(written()).toEqual({ "r.json": render("--runner-result", report, ["-h"]), "g.json": render("--gradescope", report, ["-h"]) });
  });

  test("stands in for a missing report with the rubric's checks as errors (the --rubric given, or the repository's)", async () => {
    let run = await report_(["--from", at("none.json"), "--runner-result", at("out/r.json")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const { missingReport } = run.module as typeof import("../cli/report.js");
    expect(written()).toEqual({ "r.json": render("--runner-result", missingReport(loadRubric(), [], MISSING_WHY), []) });
    expect(JSON.parse(written()["r.json"]!).max_score).toBe(100);

    run = await report_(["--rubric", otherRubric, "--from", at("none.json"), "--only", "phase1,phase2", "--junit", at("out/j.xml"), "--runner-result", at("out/r.json")]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const missing = missingReport(loadRubric(otherRubric), ["phase1", "phase2"], MISSING_WHY);
    expect(missing.deliverables.map((d) => d.id)).toEqual(["phase1"]);
    expect(written()).toEqual({ "j.xml": render("--junit", missing, ["phase1", "phase2"]), "r.json": render("--runner-result", missing, ["phase1", "phase2"]) });
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
