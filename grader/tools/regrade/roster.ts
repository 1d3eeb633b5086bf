// The class to regrade: the students' repositories, each with the folder it is cloned into, and
// how many shards grade them. `regrade plan` resolves it once (from a roster file or an
// organisation's listing) and writes it as JSON; every shard and the merge read that one file, so
// a repository created while the run goes on cannot put the shards out of step.
import fs from "node:fs";
import path from "node:path";
import { compareNames } from "../batch/shard.js";
import { writeWhole } from "../../write-whole.js";

/** One student's repository and the folder (the gradebook's submission name) it is cloned into. */
export interface RosterEntry {
  /** "owner/name", as GitHub spells it. */
  repository: string;
  folder: string;
}

/** What `regrade plan` writes: the repositories sorted by folder, and the shard count to split them into. */
export interface Roster {
  rosterVersion: 1;
  /** Where the list came from, in words: "roster.txt", "the organisation's repositories named lab-*". */
  source: string;
  shards: number;
  entries: RosterEntry[];
}

/** owner/name as GitHub allows them: an owner of letters, digits and hyphens, a name of letters, digits, ".", "-" and "_". */
const REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\/[A-Za-z0-9._-]+$/;

/**
 * The repositories a roster file lists: one `owner/name` a line; `#` starts a comment, blank lines
 * are skipped, a repository listed twice (in any case: GitHub's names ignore it) counts once.
 * Throws on a line that is not a repository, naming the file and line.
 */
export function parseRosterFile(text: string, fileName: string): { repositories: string[]; repeated: string[] } {
  const repositories: string[] = [];
  const repeated: string[] = [];
  const seen = new Map<string, number>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") continue;
    const name = line.replace(/\.git$/, "");
    if (!REPOSITORY.test(name) || name.endsWith("/.") || name.endsWith("/..")) {
      throw new Error(`${fileName}:${i + 1}: expected a repository as owner/name (such as my-course/lab-alice), got ${JSON.stringify(line)}`);
    }
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) repeated.push(`${fileName}:${i + 1}: ${name} is listed already on line ${first}`);
    else seen.set(name.toLowerCase(), i + 1), repositories.push(name);
  }
  return { repositories, repeated };
}

/**
 * Each repository with its folder, sorted by folder: the repository's name (lab-alice), or, when
 * two repositories of the list share a name (students' own copies of one repository, say),
 * owner+name for each of them ("+" is in no GitHub name, so no folder can take another's).
 */
export function rosterEntries(repositories: string[]): RosterEntry[] {
  const nameOf = (repository: string) => repository.split("/")[1]!;
  const count = new Map<string, number>();
  for (const r of repositories) count.set(nameOf(r).toLowerCase(), (count.get(nameOf(r).toLowerCase()) ?? 0) + 1);
  return repositories
    .map((repository) => ({ repository, folder: count.get(nameOf(repository).toLowerCase())! > 1 ? repository.replace("/", "+") : nameOf(repository) }))
    .sort((a, b) => compareNames(a.folder, b.folder));
}

/** The shards to use: as many as asked, but no more than students (a shard of nobody costs a runner) nor than a matrix holds. */
export function shardCount(requested: number, students: number, most: number): number {
  return Math.max(1, Math.min(requested, students, most));
}

/** Writes the roster file (whole, or not at all). */
export function writeRoster(file: string, roster: Roster): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeWhole(file, JSON.stringify(roster, null, 2) + "\n");
}

/** Reads a roster file `regrade plan` wrote; throws, saying what was expected, on anything else. */
export function readRoster(file: string): Roster {
  let roster: Partial<Roster>;
  try {
    roster = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Roster>;
  } catch (error) {
    throw new Error(`could not read the roster ${JSON.stringify(file)}: ${(error as Error).message}`);
  }
  const fine = roster.rosterVersion === 1 && Number.isInteger(roster.shards) && roster.shards! >= 1 && Array.isArray(roster.entries) && roster.entries.every((e) => REPOSITORY.test(e?.repository) && typeof e.folder === "string");
  if (!fine) throw new Error(`${JSON.stringify(file)} is not a roster written by regrade plan (expected rosterVersion 1, shards and entries of repository and folder)`);
  return roster as Roster;
}
