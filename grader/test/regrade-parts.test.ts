// The parts of `npm run regrade` that need no server and no grade: its command line, deadlines,
// roster files and folder names, the shard count, the merge of shards' gradebooks and the job
// summary written from it.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import type { Row } from "../tools/batch/gradebook.js";
import { readGradebook, writeGradebook } from "../tools/batch/gradebook-files.js";
import { parseDeadline, parseRegradeArgs, type RegradeArgs } from "../tools/regrade/args.js";
import type { CloneRecord } from "../tools/regrade/clone.js";
import { mergeShards } from "../tools/regrade/merge.js";
import { parseRosterMap } from "../tools/batch/roster-map.js";
import { nextPage } from "../tools/regrade/org-repos.js";
import { parseRosterFile, rosterEntries, shardCount, type Roster } from "../tools/regrade/roster.js";
import { median, regradeSummary } from "../tools/regrade/summary.js";
import { parseCsv } from "./support/batch.js";

/** The message of what `run` throws (the test fails when it throws nothing). */
function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error, none was thrown");
}

describe("npm run regrade's arguments", () => {
  const at = (iso: string) => new Date(iso);
  const accepted: [string[], RegradeArgs][] = [
    [["plan", "--roster", "r.txt", "--out", "o.json"], { command: "plan", source: { kind: "file", file: "r.txt" }, shards: 10, out: "o.json" }],
    [["plan", "--org", "c", "--prefix", "lab", "--shards", "3", "--out", "o.json", "--deadline", "2026-05-01T23:59:00-04:00"], { command: "plan", source: { kind: "org", org: "c", prefix: "lab" }, shards: 3, out: "o.json", deadline: at("2026-05-02T03:59:00Z") }],
    [["clone", "--roster", "o.json", "--shard", "2/4", "--into", "class", "--record", "c.json"], { command: "clone", roster: "o.json", shard: { index: 2, count: 4 }, into: "class", record: "c.json" }],
    [["clone", "--roster", "o.json", "--shard", "1/1", "--into", "d", "--record", "c.json", "--deadline", "2026-05-01T23:59Z"], { command: "clone", roster: "o.json", shard: { index: 1, count: 1 }, into: "d", record: "c.json", deadline: at("2026-05-01T23:59:00Z") }],
    [["merge", "--roster", "o.json", "--from", "shards", "--out", "g.csv"], { command: "merge", roster: "o.json", from: "shards", out: "g.csv" }],
    [["merge", "--roster", "o.json", "--from", "shards", "--out", "g.csv", "--roster-map", "map.csv"], { command: "merge", roster: "o.json", from: "shards", out: "g.csv", rosterMap: "map.csv" }],
    [["--help"], { command: "help" }],
    [["merge", "-h"], { command: "help" }],
  ];
  test.each(accepted)("accepts %j", (argv, expected) => {
    expect(parseRegradeArgs(argv)).toStrictEqual(expected);
  });

  const refused: [string[], string][] = [
    [[], "expected a command, plan, clone or merge, got none"],
    [["grade"], 'expected a command, plan, clone or merge, got "grade"'],
    [["plan", "--out", "o.json"], "regrade plan needs --roster <file>, or --org <org> with --prefix <prefix>"],
    [["plan", "--org", "c", "--out", "o.json"], "regrade plan needs --roster <file>, or --org <org> with --prefix <prefix>; got only --org"],
    [["plan", "--roster", "r", "--org", "c", "--prefix", "p", "--out", "o"], "regrade plan takes --roster or --org with --prefix, not both"],
    [["plan", "--roster", "r"], "regrade plan needs --out <file>"],
    [["plan", "--roster", "r", "--out", "o", "--shards", "0"], '--shards expects a whole number of at least 1, got "0"'],
    [["plan", "--roster", "r", "--out", "o", "--shard", "1/2"], 'unknown option "--shard" (did you mean --shards?)'],
    [["clone", "--roster", "o", "--into", "d", "--record", "c"], "regrade clone needs --shard <k/n>"],
    [["clone", "--roster", "o", "--shard", "3/2", "--into", "d", "--record", "c"], '--shard expects k/n with 1 <= k <= n, got "3/2"'],
    [["clone", "--roster", "o", "--shard", "1/2", "--into", "d"], "regrade clone needs --record <file>"],
    [["clone", "--roster", "o", "--shard", "1/2", "--into", "d", "--record", "c", "--deadline", "2026-05-01"], '--deadline expects a time in ISO 8601 with its zone, such as 2026-05-01T23:59:00-04:00 or 2026-05-01T23:59:00Z, got "2026-05-01"'],
    [["merge", "--roster", "o", "--from", "s"], "regrade merge needs --out <file.csv>"],
    [["merge", "--roster", "o", "--from", "s", "--out", "g.csv", "extra"], 'regrade merge takes no "extra": every value follows its option'],
    [["merge", "--roster"], "--roster needs a value"],
    [["merge", "--deadline", "x"], 'unknown option "--deadline"'],
  ];
  test.each(refused)("refuses %j", (argv, message) => {
    expect(thrown(() => parseRegradeArgs(argv))).toBe(message);
  });

  test("a deadline is an instant with its zone, and a day that does not exist is refused", () => {
    expect(parseDeadline("--deadline", "2026-05-01T23:59:30.5+02:00").toISOString()).toBe("2026-05-01T21:59:30.500Z");
    for (const text of ["2026-05-01T23:59:00", "2026-02-30T10:00:00Z", "2026-13-01T00:00Z", "2026-05-01T24:30Z", "2026-05-01 23:59Z", "tomorrow", ""]) {
      expect(thrown(() => parseDeadline("--deadline", text))).toMatch(/^--deadline expects a time in ISO 8601 with its zone/);
    }
  });
});

describe("the roster", () => {
  test("a roster file: one owner/name a line, comments and blank lines skipped, a repository listed twice (in any case) counted once", () => {
    const text = "# Section A\r\nmy-course/lab-bob\n\n  my-course/lab-alice   # moved from B\nmy-course/lab-carol.git\nMy-Course/Lab-Bob\n";
    expect(parseRosterFile(text, "roster.txt")).toEqual({ repositories: ["my-course/lab-bob", "my-course/lab-alice", "my-course/lab-carol"], repeated: ["roster.txt:6: My-Course/Lab-Bob is listed already on line 2"] });
    for (const [line, n] of [["lab-alice", 2], ["https://github.com/c/lab-alice", 2], ["c/lab alice", 2], ["-c/x", 2], ["c/..", 2], ["c/x/y", 2]] as const) {
      expect(thrown(() => parseRosterFile(`a/b\n${line}\n`, "r.txt"))).toBe(`r.txt:${n}: expected a repository as owner/name (such as my-course/lab-alice), got ${JSON.stringify(line)}`);
    }
  });

  test("each repository is cloned into a folder of its name, owner+name for names two owners share, sorted by folder", () => {
    expect(rosterEntries(["c/lab-bob", "alice/lab", "c/lab-alice", "Bob/LAB"])).toEqual([
      { repository: "Bob/LAB", folder: "Bob+LAB" },
      { repository: "alice/lab", folder: "alice+lab" },
      { repository: "c/lab-alice", folder: "lab-alice" },
      { repository: "c/lab-bob", folder: "lab-bob" },
    ]);
  });

  test("the shard count is the one asked for, but never more than students nor the matrix's 256, nor less than 1", () => {
    expect([shardCount(10, 400, 256), shardCount(10, 4, 256), shardCount(300, 1000, 256), shardCount(1, 0, 256)]).toEqual([10, 4, 256, 1]);
  });

  test("the next page is the Link header's rel=next, wherever it stands", () => {
    expect(nextPage('<https://api.github.com/orgs/c/repos?page=2>; rel="next", <https://api.github.com/orgs/c/repos?page=5>; rel="last"')).toBe("https://api.github.com/orgs/c/repos?page=2");
    expect(nextPage('<https://x/?page=1>; rel="prev", <https://x/?page=3>; rel="next"')).toBe("https://x/?page=3");
    expect(nextPage('<https://x/?page=1>; rel="first", <https://x/?page=2>; rel="prev"')).toBeUndefined();
    expect(nextPage(null)).toBeUndefined();
  });
});

/** A small report of this grader's shape: `phase1` graded with `points`, graded with --only phase1. */
function reportOf(points: number): Report {
  return {
    schemaVersion: 6, target: "starter", seed: 1, score: points, maxScore: 35, bonus: 0, maxBonus: 0,
    deliverables: [{ id: "phase1", title: "Phase 1", kind: "core", status: "graded", points, maxPoints: 35, checks: [{ id: "phase1.round-trip", title: "x", status: points === 35 ? "passed" : "failed", points, maxPoints: 35, crashStates: 0 }] }],
    stats: { crashStates: 0, durationMs: 1 },
    partial: { only: ["phase1"], maxScore: 100, maxBonus: 50 },
  };
}

describe("regrade merge", () => {
  const rubric = loadRubric();
  const roster: Roster = { rosterVersion: 1, source: "r.txt", shards: 3, entries: ["lab-a", "lab-b", "lab-c", "lab-d", "lab-e", "lab-f"].map((folder) => ({ repository: `c/${folder}`, folder })) };

  /** A shard's folder as its job leaves it: its gradebook (rows graded with these points), its reports, and its clone record. */
  function shardFolder(root: string, name: string, graded: Record<string, number>, failed: Record<string, string>, modified: Record<string, string[]> = {}): void {
    const dir = path.join(root, name);
    const rows: Row[] = Object.entries(graded).map(([submission, points]) => {
      fs.mkdirSync(path.join(dir, "grades-reports"), { recursive: true });
      fs.writeFileSync(path.join(dir, "grades-reports", `${submission}.json`), JSON.stringify(reportOf(points)));
      return { submission, report: reportOf(points), modified: modified[submission] ?? [], reportPath: `grades-reports/${submission}.json` };
    });
    writeGradebook({ csv: path.join(dir, "grades.csv"), rubric, rows });
    const record: CloneRecord = { clonesVersion: 1, shard: name, cloned: Object.keys(graded).map((folder) => ({ repository: `c/${folder}`, folder, commit: "c0ffee", committedAt: "2026-03-01T00:00:00Z" })), failed: Object.entries(failed).map(([folder, error]) => ({ repository: `c/${folder}`, folder, error })) };
    fs.writeFileSync(path.join(dir, "clones.json"), JSON.stringify(record));
  }

  test("takes every shard's rows, adds error rows for failed clones and for students no shard brought back, sorted, with each report copied beside it", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "merge-" });
    try {
      const shards = path.join(tmp.path, "shards");
      // Shard 1 of 3 is lab-a and lab-d; shard 2 lab-b and lab-e; shard 3 (lab-c, lab-f) never came back.
      shardFolder(shards, "shard-1", { "lab-d": 20, "lab-a": 35 }, {}, { "lab-a": ["grader/rubric.json"] });
      shardFolder(shards, "shard-2", { "lab-e": 12 }, { "lab-b": "could not clone c/lab-b: repository not found" });
      const out = path.join(tmp.path, "book/grades.csv");
      const rows = mergeShards({ roster, from: shards, out, rubric, log: () => {} });
      const csv = parseCsv(fs.readFileSync(out, "utf8"));
      const at = (name: string) => csv[0]!.indexOf(name);
      expect(csv.slice(1).map((r) => [r[0], r[1], r[2], r[6], r[at("modified")], r[at("error")], r[at("report")]])).toEqual([
        ["lab-a", "graded", "35", "35", "grader/rubric.json", "", "grades-reports/lab-a.json"],
        ["lab-b", "error", "", "", "", "could not clone c/lab-b: repository not found", ""],
        ["lab-c", "error", "", "", "", "no grade came back for c/lab-c from shard 3 of 3 (see that shard's job log)", ""],
        ["lab-d", "graded", "20", "20", "", "", "grades-reports/lab-d.json"],
        ["lab-e", "graded", "12", "12", "", "", "grades-reports/lab-e.json"],
        ["lab-f", "error", "", "", "", "no grade came back for c/lab-f from shard 3 of 3 (see that shard's job log)", ""],
      ]);
      // The merged JSON reads back with its reports, as a shard's does.
      expect(readGradebook(path.join(tmp.path, "book/grades.json")).map((r) => [r.submission, r.report?.score ?? null])).toEqual(rows.map((r) => [r.submission, r.report?.score ?? null]));
      expect(JSON.parse(fs.readFileSync(path.join(tmp.path, "book/grades-clones.json"), "utf8")).map((c: { folder: string }) => c.folder)).toEqual(["lab-a", "lab-d", "lab-e"]);

      const summary = regradeSummary(rubric, rows);
      expect(summary).toContain("## Regrade: 6 students, 3 graded, 3 errors\n");
      expect(summary).toContain("Graded with `--only phase1`: a partial grade");
      expect(summary).toContain("| core score | 20 | 35 |\n| `phase1` | 20 | 35 |\n| `phase2` | not graded | |");
      expect(summary).toContain("### 3 errors\n\n| submission | error |\n|---|---|\n| `lab-b` | could not clone c/lab-b: repository not found |\n| `lab-c` | no grade came back");
      expect(summary).toContain("### Grader files modified in 1 repository\n\nGraded with the pristine grader all the same.\n\n| submission | modified |\n|---|---|\n| `lab-a` | grader/rubric.json |");
    } finally {
      await tmp.cleanup();
    }
  });

  test("with a roster map, each row gets its student's id by repository, a student with no repository in the class an error row, and the summary lists the repositories it does not name", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "merge-" });
    try {
      shardFolder(tmp.path, "shard-1", { "lab-a": 35, "lab-d": 20 }, {});
      shardFolder(tmp.path, "shard-2", { "lab-b": 12, "lab-e": 0 }, {});
      shardFolder(tmp.path, "shard-3", { "lab-c": 35, "lab-f": 35 }, {});
      const rosterMap = parseRosterMap("repository,student id\nC/Lab-A,s1\nc/lab-b,s2\nc/lab-c,s3\nc/lab-d,s4\nc/lab-e,s5\nc/lab-z,s9\n", "map.csv");
      const out = path.join(tmp.path, "book/grades.csv");
      const rows = mergeShards({ roster, from: tmp.path, out, rubric, rosterMap, log: () => {} });
      const csv = parseCsv(fs.readFileSync(out, "utf8"));
      const at = (name: string) => csv[0]!.indexOf(name);
      expect(at("student id")).toBe(at("report") + 1);
      expect(csv.slice(1).map((r) => [r[0], r[at("status")], r[at("student id")], r[at("error")]])).toEqual([
        ["lab-a", "graded", "s1", ""],
        ["lab-b", "graded", "s2", ""],
        ["lab-c", "graded", "s3", ""],
        ["lab-d", "graded", "s4", ""],
        ["lab-e", "graded", "s5", ""],
        ["lab-f", "graded", "", ""],
        ["lab-z", "error", "s9", "no submission for repository c/lab-z of the roster map (map.csv, line 7)"],
      ]);
      expect(JSON.parse(fs.readFileSync(path.join(tmp.path, "book/grades.json"), "utf8")).rosterMap).toBe("map.csv");
      expect(parseCsv(fs.readFileSync(path.join(tmp.path, "book/grades-canvas.csv"), "utf8")).slice(2).map((r) => [r[2], r[5]])).toEqual([["s1", "35"], ["s2", "12"], ["s3", "35"], ["s4", "20"], ["s5", "0"]]);
      const summary = regradeSummary(rubric, rows, { rosterMap: "map.csv" });
      expect(summary).toContain("### Not in the roster map: 1 repository\n\nmap.csv names none of these, so their student id is empty: add them to it and merge again.\n\n`lab-f`\n");
      expect(summary).toContain("| `lab-z` | no submission for repository c/lab-z of the roster map (map.csv, line 7) |");
      expect(regradeSummary(rubric, rows)).not.toContain("roster map:");
    } finally {
      await tmp.cleanup();
    }
  });

  test("refuses a submission two shards both graded: the shards were not made from one roster", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "merge-" });
    try {
      shardFolder(tmp.path, "shard-1", { "lab-a": 35 }, {});
      shardFolder(tmp.path, "shard-2", {}, { "lab-a": "could not clone" });
      expect(thrown(() => mergeShards({ roster, from: tmp.path, out: path.join(tmp.path, "g.csv"), rubric, log: () => {} }))).toBe("lab-a has a row in two shards (the second in shard-2); expected each repository in one shard: were the shards made from one roster?");
    } finally {
      await tmp.cleanup();
    }
  });

  test("the median is the middle value, or the mean of the middle two; a summary's table cells cannot break the table", () => {
    expect([median([3]), median([9, 1, 5]), median([1, 2]), median([0, 35, 10, 12])]).toEqual(["3", "5", "1.5", "11"]);
    const summary = regradeSummary(rubric, [{ submission: "x", report: null, error: "a | b\n<script>", modified: [] }]);
    expect(summary).toContain("| `x` | a \\| b &lt;script&gt; |");
    expect(summary).not.toContain("| core score");
  });
});
