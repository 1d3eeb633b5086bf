// The roster map (`--roster-map <file>`): which student each submission is, so that the gradebook
// carries a student id column a course's gradebook can import by. A CSV file with a header; one
// column names the submission, as one of:
//   submission   the gradebook's submission name (the folder grade-batch graded, the folder the
//                regrade cloned into)
//   repository   the student's repository, owner/name (matched by the regrade's roster, or by a
//                folder named name or owner+name)
//   github       the student's GitHub user name: the submission whose name ends in -<user>, as
//                GitHub Classroom names each repository <prefix>-<user>
// and one column holds the student's id, named student id, sis id, sid or email (in any case, _ or
// - for the space). Other columns are left alone.
import fs from "node:fs";
import path from "node:path";
import { csvRows } from "./csv-rows.js";
import type { Row } from "./gradebook.js";
import { compareNames } from "./shard.js";

export type KeyKind = "submission" | "repository" | "github";
export type IdColumn = "student id" | "sis id" | "sid" | "email";

export interface RosterMapEntry {
  /** The submission, repository or GitHub user, as the file writes it. */
  key: string;
  studentId: string;
  /** Its line in the file. */
  line: number;
}

export interface RosterMap {
  /** The file's name, for messages. */
  file: string;
  kind: KeyKind;
  /** Which id the file gives: a Canvas file puts an email in SIS Login ID, any other in SIS User ID. */
  idColumn: IdColumn;
  entries: RosterMapEntry[];
}

const KEY_COLUMNS: KeyKind[] = ["submission", "repository", "github"];
const ID_COLUMNS: IdColumn[] = ["student id", "sis id", "sid", "email"];

/** owner/name, and a GitHub user name (letters, digits and single hyphens inside). */
const REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\/[A-Za-z0-9._-]+$/;
const USER = /^[A-Za-z0-9](?:-?[A-Za-z0-9])*$/;

/** Reads and checks the roster map in `file`; throws an Error whose message is for the user, naming the line. */
export function readRosterMap(file: string): RosterMap {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`could not read the roster map ${JSON.stringify(file)}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  return parseRosterMap(text, path.basename(file));
}

/** The roster map in `text` (from a file named `file`); throws an Error naming the file and line of what is wrong. */
export function parseRosterMap(text: string, file: string): RosterMap {
  let rows;
  try {
    rows = csvRows(text);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const [header, ...body] = rows;
  if (!header) throw new Error(`${file} is empty; expected a header, such as submission,student id or github,sis id, then one row per student`);
  const names = header.cells.map((h) => h.trim().toLowerCase().replace(/[_-]/g, " ").replace(/\s+/g, " "));
  const column = (wanted: string[], what: string) => {
    const found = names.flatMap((n, i) => (wanted.includes(n) ? [i] : []));
    if (found.length === 1) return found[0]!;
    const got = found.length === 0 ? `its header is ${header.cells.map((h) => JSON.stringify(h)).join(",")}` : `it has ${found.map((i) => JSON.stringify(header.cells[i])).join(" and ")}`;
    throw new Error(`${file}: expected one column naming ${what} (${wanted.join(", ")}); ${got}`);
  };
  const keyAt = column(KEY_COLUMNS, "the submission");
  const idAt = column(ID_COLUMNS, "the student's id");
  const kind = names[keyAt] as KeyKind;
  const idColumn = names[idAt] as IdColumn;
  const entries: RosterMapEntry[] = [];
  const seenKey = new Map<string, number>();
  const seenId = new Map<string, number>();
  for (const { cells, line } of body) {
    const key = (cells[keyAt] ?? "").trim();
    const studentId = (cells[idAt] ?? "").trim();
    if (key === "" && studentId === "") continue;
    if (key === "") throw new Error(`${file}:${line}: student id ${studentId} has no ${kind}`);
    if (studentId === "") throw new Error(`${file}:${line}: ${kind} ${key} has no student id`);
    if (kind === "repository" && !REPOSITORY.test(key)) throw new Error(`${file}:${line}: expected a repository as owner/name (such as my-course/lab-alice), got ${JSON.stringify(key)}`);
    if (kind === "github" && !USER.test(key)) throw new Error(`${file}:${line}: expected a GitHub user name (letters, digits and hyphens), got ${JSON.stringify(key)}`);
    // GitHub's names ignore case; a folder's name does not.
    const sameKey = kind === "submission" ? key : key.toLowerCase();
    if (seenKey.has(sameKey)) throw new Error(`${file}:${line}: ${kind} ${key} is listed already on line ${seenKey.get(sameKey)}`);
    // Two submissions of one student would be two rows for one student in the course's gradebook.
    if (seenId.has(studentId)) throw new Error(`${file}:${line}: student id ${studentId} is given already on line ${seenId.get(studentId)}`);
    seenKey.set(sameKey, line);
    seenId.set(studentId, line);
    entries.push({ key, studentId, line });
  }
  return { file, kind, idColumn, entries };
}

/** What the map made of a gradebook's rows. */
export interface Mapped {
  /** Every row with its student id when the map has one, and an error row for each student of the map with no submission; sorted by submission. */
  rows: Row[];
  /** The submissions the map does not name. */
  notInMap: string[];
  /** The students of the map with no submission. */
  noSubmission: RosterMapEntry[];
}

/**
 * Gives each row the student id of the map's entry that names its submission; `repositoryOf`
 * tells a submission's repository when it is known (the regrade's roster). Throws when one entry
 * names two submissions (a GitHub user whose name ends two submissions' names).
 */
export function applyRosterMap(rows: Row[], map: RosterMap, repositoryOf: (submission: string) => string | undefined = () => undefined): Mapped {
  const byEntry = new Map<RosterMapEntry, Row[]>();
  const mapped = rows.map((row) => {
    const entry = entryOf(row.submission, map, repositoryOf(row.submission));
    if (!entry) return row;
    byEntry.set(entry, [...(byEntry.get(entry) ?? []), row]);
    return { ...row, studentId: entry.studentId };
  });
  for (const [entry, named] of byEntry) {
    if (named.length > 1) throw new Error(`${map.file}:${entry.line}: ${map.kind} ${entry.key} names ${named.length} submissions (${named.map((r) => r.submission).join(", ")}); name each submission in a submission column instead`);
  }
  const noSubmission = map.entries.filter((e) => !byEntry.has(e));
  // A missing repository's row is named as the regrade names folders: name, or owner+name when a row has that name.
  const nameOf = (e: RosterMapEntry) => (map.kind !== "repository" ? e.key : rows.some((r) => r.submission === e.key.split("/")[1]) ? e.key.replace("/", "+") : e.key.split("/")[1]!);
  const missing: Row[] = noSubmission.map((e) => ({ submission: nameOf(e), studentId: e.studentId, report: null, error: `no submission for ${map.kind} ${e.key} of the roster map (${map.file}, line ${e.line})`, modified: [] }));
  return {
    rows: [...mapped, ...missing].sort((a, b) => compareNames(a.submission, b.submission)),
    notInMap: mapped.filter((r) => r.studentId === undefined).map((r) => r.submission),
    noSubmission,
  };
}

/** The entry of `map` that names `submission` (whose repository is `repository`, when known). */
function entryOf(submission: string, map: RosterMap, repository: string | undefined): RosterMapEntry | undefined {
  const lower = submission.toLowerCase();
  if (map.kind === "submission") return map.entries.find((e) => e.key === submission);
  if (map.kind === "repository") {
    if (repository) return map.entries.find((e) => e.key.toLowerCase() === repository.toLowerCase());
    // As the regrade names the folders it clones into: name, or owner+name when two owners share a name.
    return map.entries.find((e) => lower === e.key.toLowerCase().split("/")[1] || lower === e.key.toLowerCase().replace("/", "+"));
  }
  // The longest user whose name ends the submission's: lab-jo-ann is jo-ann's, not ann's.
  const name = (repository ?? submission).toLowerCase().split("/").at(-1)!;
  return map.entries.filter((e) => name.endsWith(`-${e.key.toLowerCase()}`)).sort((a, b) => b.key.length - a.key.length)[0];
}
