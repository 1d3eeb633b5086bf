// The gradebook a course can upload: a roster map read as a spreadsheet saves it, each submission
// matched to its student by folder, repository or GitHub user, the students without a submission
// as error rows, and the CSV's appended columns: the student id, then each check's points.
import { describe, expect, test } from "vitest";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { gradebookCsv, type Row } from "../tools/batch/gradebook.js";
import { applyRosterMap, parseRosterMap, type RosterMap } from "../tools/batch/roster-map.js";
import { CANVAS_ASSIGNMENT, canvasCsv } from "../tools/batch/canvas.js";
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

const row = (submission: string, error?: string): Row => ({ submission, report: null, modified: [], ...(error ? { error } : {}) });
const ids = (rows: Row[]) => rows.map((r) => [r.submission, r.studentId ?? null, r.error ?? null]);

describe("reading a roster map", () => {
  test("one column names the submission and one the student id, whatever their case, spacing and place; other columns, blank lines, a byte-order mark and CRLF are fine", () => {
    const text = '\uFEFFName,GitHub,SIS_ID,Section\r\n"Lovelace, Ada",ada-l,00123,A\r\n\r\nBob,bob,00456,"B, late"\r\n';
    expect(parseRosterMap(text, "map.csv")).toEqual({ file: "map.csv", kind: "github", idColumn: "sis id", entries: [{ key: "ada-l", studentId: "00123", line: 2 }, { key: "bob", studentId: "00456", line: 4 }] });
    expect(parseRosterMap("submission,student id\nlab-a,s1\n", "m.csv").kind).toBe("submission");
    expect(parseRosterMap("email,repository\na@u.edu,c/lab-a\n", "m.csv")).toEqual({ file: "m.csv", kind: "repository", idColumn: "email", entries: [{ key: "c/lab-a", studentId: "a@u.edu", line: 2 }] });
    expect(parseRosterMap("sid,submission\n", "m.csv").entries).toEqual([]);
  });

  test("a file it cannot read rightly is refused, naming the file and line: no column, two of a kind, a key or id missing or given twice, a malformed repository or user, a quote left open", () => {
    const cases: [string, string][] = [
      ["", "m.csv is empty; expected a header, such as submission,student id or github,sis id, then one row per student"],
      ["name,student id\nx,1\n", 'm.csv: expected one column naming the submission (submission, repository, github); its header is "name","student id"'],
      ["github,sid,email\nx,1,a@b\n", 'm.csv: expected one column naming the student\'s id (student id, sis id, sid, email); it has "sid" and "email"'],
      ["github,Repository,sid\nx,c/x,1\n", 'm.csv: expected one column naming the submission (submission, repository, github); it has "github" and "Repository"'],
      ["github,sid\nann,1\nbob,\n", "m.csv:3: github bob has no student id"],
      ["github,sid\n,7\n", "m.csv:2: student id 7 has no github"],
      ["github,sid\nann,1\nAnn,2\n", "m.csv:3: github Ann is listed already on line 2"],
      ["submission,sid\nlab-a,1\nlab-b,1\n", "m.csv:3: student id 1 is given already on line 2"],
      ["repository,sid\nlab-a,1\n", 'm.csv:2: expected a repository as owner/name (such as my-course/lab-alice), got "lab-a"'],
      ["github,sid\nann smith,1\n", 'm.csv:2: expected a GitHub user name (letters, digits and hyphens), got "ann smith"'],
      ['github,sid\n"ann,1\n', "m.csv: line 2: a quoted field is never closed"],
    ];
    for (const [text, message] of cases) expect(thrown(() => parseRosterMap(text, "m.csv"))).toBe(message);
    // Two folders may differ in case only; GitHub's names may not.
    expect(parseRosterMap("submission,sid\nlab-a,1\nLab-A,2\n", "m.csv").entries).toHaveLength(2);
  });
});

describe("matching submissions to students", () => {
  const map = (text: string): RosterMap => parseRosterMap(text, "m.csv");

  test("by submission: the folder's exact name; a submission it does not name keeps an empty id, a student it names with no submission becomes an error row, sorted in", () => {
    const mapped = applyRosterMap([row("lab-a"), row("lab-c"), row("Lab-A")], map("submission,sid\nlab-a,1\nlab-b,2\n"));
    expect(ids(mapped.rows)).toEqual([
      ["Lab-A", null, null],
      ["lab-a", "1", null],
      ["lab-b", "2", "no submission for submission lab-b of the roster map (m.csv, line 3)"],
      ["lab-c", null, null],
    ]);
    expect(mapped.notInMap).toEqual(["lab-c", "Lab-A"]);
    expect(mapped.noSubmission.map((e) => e.key)).toEqual(["lab-b"]);
  });

  test("by repository: the regrade's own record of it, or a folder named name or owner+name, in any case", () => {
    const m = map("repository,sid\nc/lab-a,1\nann/lab,2\nbob/lab,3\n");
    expect(ids(applyRosterMap([row("lab-A"), row("ann+lab"), row("Bob+Lab")], m).rows)).toEqual([["Bob+Lab", "3", null], ["ann+lab", "2", null], ["lab-A", "1", null]]);
    // The regrade knows each folder's repository: a folder named otherwise still matches.
    const repositoryOf = (f: string) => ({ x: "C/Lab-A", y: "ann/lab", z: "bob/lab" })[f];
    expect(ids(applyRosterMap([row("x"), row("y"), row("z")], m, repositoryOf).rows)).toEqual([["x", "1", null], ["y", "2", null], ["z", "3", null]]);
    // A repository with no submission is named as its folder would be: owner+name when a row has its name already.
    const two = map("repository,sid\nc/lab-a,1\nd/lab-a,2\nc/lab-q,3\n");
    expect(ids(applyRosterMap([row("lab-a")], two).rows)).toEqual([
      ["d+lab-a", "2", "no submission for repository d/lab-a of the roster map (m.csv, line 3)"],
      ["lab-a", "1", null],
      ["lab-q", "3", "no submission for repository c/lab-q of the roster map (m.csv, line 4)"],
    ]);
  });

  test("by GitHub user: the submission named <prefix>-<user>, the longest user when two end it; a user that ends two submissions' names is refused", () => {
    const m = map("github,sid\nann,1\njo-ann,2\nbob,3\n");
    expect(ids(applyRosterMap([row("lab-ann"), row("lab-jo-ann"), row("lab-Bob"), row("lab-carol")], m).rows)).toEqual([["lab-Bob", "3", null], ["lab-ann", "1", null], ["lab-carol", null, null], ["lab-jo-ann", "2", null]]);
    expect(thrown(() => applyRosterMap([row("lab-bob"), row("lab2-bob")], m))).toBe("m.csv:4: github bob names 2 submissions (lab-bob, lab2-bob); name each submission in a submission column instead");
    // An error row the batch wrote keeps its error, with its student's id.
    expect(ids(applyRosterMap([row("lab-bob", "no starter/ folder and no checkpoint.ts")], m).rows)[2]).toEqual(["lab-bob", "3", "no starter/ folder and no checkpoint.ts"]);
  });
});

describe("the gradebook's appended columns", () => {
  const rubric = loadRubric();
  const checks = rubric.deliverables.filter((d) => d.enabled).flatMap((d) => d.checks.map((c) => c.id));
  /** A report grading phase1 only (--only phase1): its round-trip passed, every other check of it failed. */
  const report = (): Report => {
    const phase1 = rubric.deliverables.find((d) => d.id === "phase1")!;
    const cs = phase1.checks.map((c) => ({ id: c.id, title: c.title, status: c.id === "phase1.round-trip" ? ("passed" as const) : ("failed" as const), points: c.id === "phase1.round-trip" ? c.points : 0, maxPoints: c.points, crashStates: 0 }));
    const points = cs.reduce((n, c) => n + c.points, 0);
    return { schemaVersion: 6, target: "starter", seed: 1, score: points, maxScore: 35, bonus: 0, maxBonus: 0, deliverables: [{ id: "phase1", title: phase1.title, kind: "core", status: "graded", points, maxPoints: 35, checks: cs }], stats: { crashStates: 0, durationMs: 1 } };
  };
  const rows: Row[] = [{ submission: "lab-a", report: report(), modified: [], reportPath: "grades-reports/lab-a.json", studentId: "00123" }, row("lab-b", "no starter/ folder and no checkpoint.ts")];

  test("after the columns there were, in their places: the student id when a roster map was given, then each enabled check's points, headed by its id", () => {
    const [header, a, b] = parseCsv(gradebookCsv(rubric, rows, { studentIds: true }));
    const before = ["submission", "status", "core score", "core max", "bonus", "bonus max", ...rubric.deliverables.filter((d) => d.enabled).map((d) => d.id), "modified", "error", "report"];
    expect(header).toEqual([...before, "student id", ...checks]);
    const cell = (cells: string[], name: string) => cells[header!.indexOf(name)];
    expect([cell(a!, "student id"), cell(a!, "phase1.round-trip"), cell(a!, "phase1.crash-safety"), cell(a!, "phase2.complete-run")]).toEqual(["00123", String(rubric.deliverables[0]!.checks.find((c) => c.id === "phase1.round-trip")!.points), "0", ""]);
    expect(b!.slice(before.length)).toEqual(["", ...checks.map(() => "")]);
    // Without a roster map, no student id column: the checks follow the report column.
    expect(parseCsv(gradebookCsv(rubric, rows))[0]).toEqual([...before, ...checks]);
  });
});

describe("the gradebook for Canvas", () => {
  const graded = (submission: string, score: number, studentId?: string): Row => ({ submission, report: { schemaVersion: 6, target: "starter", seed: 1, score, maxScore: 100, bonus: 0, maxBonus: 50, deliverables: [], stats: { crashStates: 0, durationMs: 1 } }, modified: [], ...(studentId ? { studentId } : {}) });
  const rows = [graded("lab-a", 85, "00123"), graded("lab-b", 100), { ...row("lab-c", "the grade did not finish within 9 min and was stopped"), studentId: "00789" }, graded("lab-d", 0, "00456")];

  test("starts with the columns Canvas's import takes as the student's, in its order (Student, ID, SIS User ID, SIS Login ID, Section), then the core score under the assignment, with a Points Possible row", () => {
    const [header, possible, ...students] = parseCsv(canvasCsv(rows, "sis id"));
    // Canvas's importer: the header's first cell holds "Student", its second "ID", and the last of the student's columns "Section".
    expect(header).toEqual(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", CANVAS_ASSIGNMENT]);
    expect(possible).toEqual(["Points Possible", "", "", "", "", "100"]);
    // Only graded rows with a student id: lab-b has none, lab-c's grade did not finish.
    expect(students).toEqual([["", "", "00123", "", "", "85"], ["", "", "00456", "", "", "0"]]);
  });

  test("ids that are emails go in SIS Login ID, where Canvas looks for a login", () => {
    const [, , first] = parseCsv(canvasCsv([graded("lab-a", 85, "ada@u.edu")], "email"));
    expect(first).toEqual(["", "", "", "ada@u.edu", "", "85"]);
  });
});
