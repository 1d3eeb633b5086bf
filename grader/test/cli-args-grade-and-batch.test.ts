// The command lines of `npm run grade` and `npm run grade-batch`, each a parser of its own: every
// form each accepts, what it makes of it, and every message a wrong one gets, word for word.
import { afterEach, describe, expect, test, vi } from "vitest";
import { parseArgs, unknownSelections, USAGE, type GradeArgs } from "../cli/args.js";
import { FORMATS } from "../report/formats/index.js";
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
      ["--target", "t", "--json", "r.json", "--markdown", "s.md", "--junit", "j.xml", "--gradescope", "g.json", "--classroom50", "c.json", "--rubric", "ru.json", "--only", "phase1", "--seed", "3"],
      grade({
        target: "t", json: "r.json", rubric: "ru.json", only: ["phase1"], seed: 3,
        outputs: [{ flag: "--markdown", file: "s.md" }, { flag: "--junit", file: "j.xml" }, { flag: "--gradescope", file: "g.json" }, { flag: "--classroom50", file: "c.json" }],
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
    [["--junit", "--markdown", "m.md"], "--junit needs a value"],
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
    [["subs", "--out", "g.csv", "--shard", "1/1"], batch({ shard: { index: 1, count: 1 } })],
    [["subs", "--out", "g.csv", "--shard", "3/10"], batch({ shard: { index: 3, count: 10 } })],
    [["subs", "--out", "g.csv", "--shard", "256/256"], batch({ shard: { index: 256, count: 256 } })],
    [["subs", "--out", "g.csv", "--shard", "02/04", "--shard", "4/4"], batch({ shard: { index: 4, count: 4 } })],
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
    [["subs", "--shard"], "--shard needs a value"],
    [["subs", "--out", "g.csv", "--shard", "3/2"], '--shard expects k/n with 1 <= k <= n, got "3/2"'],
    [["subs", "--out", "g.csv", "--shard", "0/2"], '--shard expects k/n with 1 <= k <= n, got "0/2"'],
    [["subs", "--out", "g.csv", "--shard", "1/0"], '--shard expects k/n with 1 <= k <= n, got "1/0"'],
    [["subs", "--out", "g.csv", "--shard", "2"], '--shard expects k/n with 1 <= k <= n, got "2"'],
    [["subs", "--out", "g.csv", "--shard", "1/2/3"], '--shard expects k/n with 1 <= k <= n, got "1/2/3"'],
    [["subs", "--out", "g.csv", "--shard", "1 /2"], '--shard expects k/n with 1 <= k <= n, got "1 /2"'],
    [["subs", "--out", "g.csv", "--shard", "-1/2"], '--shard expects k/n with 1 <= k <= n, got "-1/2"'],
    [["subs", "--out", "g.csv", "--shard", "1.5/2"], '--shard expects k/n with 1 <= k <= n, got "1.5/2"'],
    [["subs", "--out", "g.csv", "--shard", ""], '--shard expects k/n with 1 <= k <= n, got ""'],
    [["subs", "--out", "g.csv", "--shard", "1/257"], '--shard expects k/n with 1 <= k <= n and n at most 256, got "1/257"'],
    [["--shard=1/2", "subs"], 'unknown option "--shard=1/2" (give its value after a space: --shard 1/2)'],
  ];
  test.each(refused)("refuses %j", (argv, message) => {
    expect(thrown(() => parseBatchArgs(argv))).toBe(message);
  });
});
