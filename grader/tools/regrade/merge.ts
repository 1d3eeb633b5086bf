// `regrade merge`: the shards' gradebooks made one. Each shard's folder holds its gradebook
// (grades.json, with grades-reports/, from grade-batch) and its clone record (clones.json); the
// merge takes every row, adds an error row for each repository that could not be cloned and for
// each one of the roster that no shard brought back, sorts them, copies the reports beside the new
// gradebook, and writes it with the grade-batch's own writer; with a roster map, each row gets its
// student's id, and each student of the map with no repository in the class an error row.
import fs from "node:fs";
import path from "node:path";
import type { Rubric } from "../../rubric.js";
import type { Row } from "../batch/gradebook.js";
import { gradebookPaths, readGradebook, writeGradebook } from "../batch/gradebook-files.js";
import { compareNames, shardNumberOf } from "../batch/shard.js";
import type { CloneRecord, Cloned } from "./clone.js";
import { applyRosterMap, type RosterMap } from "../batch/roster-map.js";
import type { Roster } from "./roster.js";

/** The names a shard's folder holds its files under (the workflow writes them so). */
export const SHARD_FILES = { gradebook: "grades.csv", clones: "clones.json" } as const;

export interface MergeOptions {
  roster: Roster;
  /** The folder holding one folder per shard (as download-artifact leaves them). */
  from: string;
  /** The merged gradebook's CSV; its JSON, reports and the rest go beside it. */
  out: string;
  rubric: Rubric;
  /** Gives each row its student id (roster-map.ts); unset: no student id column. */
  rosterMap?: RosterMap;
  log: (line: string) => void;
}

/** Merges the shards into one gradebook and returns its rows; beside it, <name>-clones.json lists the commit each repository was graded at. */
export function mergeShards(opts: MergeOptions): Row[] {
  const rows = new Map<string, Row & { reportFile?: string }>();
  const cloned: Cloned[] = [];
  const add = (row: Row & { reportFile?: string }, from: string) => {
    const earlier = rows.get(row.submission);
    if (earlier) throw new Error(`${row.submission} has a row in two shards (the second in ${from}); expected each repository in one shard: were the shards made from one roster?`);
    rows.set(row.submission, row);
  };
  const shardDirs = fs.readdirSync(opts.from, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort(compareNames);
  for (const shard of shardDirs) {
    const dir = path.join(opts.from, shard);
    const gradebook = gradebookPaths(path.join(dir, SHARD_FILES.gradebook)).json;
    if (fs.existsSync(gradebook)) {
      for (const row of readGradebook(gradebook)) add({ ...row, reportFile: row.reportPath ? path.join(dir, row.reportPath) : undefined }, shard);
    }
    const clonesFile = path.join(dir, SHARD_FILES.clones);
    if (fs.existsSync(clonesFile)) {
      const record = JSON.parse(fs.readFileSync(clonesFile, "utf8")) as CloneRecord;
      if (record.clonesVersion !== 1) throw new Error(`${shard}/${SHARD_FILES.clones} is not a record regrade clone wrote (expected clonesVersion 1)`);
      for (const failure of record.failed) add({ submission: failure.folder, report: null, error: failure.error, modified: [] }, shard);
      cloned.push(...record.cloned);
    }
  }
  const folders = opts.roster.entries.map((e) => e.folder);
  for (const entry of opts.roster.entries) {
    if (rows.has(entry.folder)) continue;
    const shard = shardNumberOf(entry.folder, folders, opts.roster.shards);
    rows.set(entry.folder, { submission: entry.folder, report: null, error: `no grade came back for ${entry.repository} from shard ${shard} of ${opts.roster.shards} (see that shard's job log)`, modified: [] });
  }
  const copied = [...rows.values()].sort((a, b) => compareNames(a.submission, b.submission)).map((row) => withReportCopied(row, opts.out));
  const repositoryOf = (folder: string) => opts.roster.entries.find((e) => e.folder === folder)?.repository;
  const merged = opts.rosterMap ? applyRosterMap(copied, opts.rosterMap, repositoryOf).rows : copied;
  writeGradebook({ csv: opts.out, rubric: opts.rubric, rows: merged, rosterMap: opts.rosterMap });
  const clonesOut = `${opts.out.replace(/\.csv$/i, "")}-clones.json`;
  fs.writeFileSync(clonesOut, JSON.stringify(cloned.sort((a, b) => compareNames(a.folder, b.folder)), null, 2) + "\n");
  const errors = merged.filter((r) => r.error).length;
  opts.log(`Merged ${shardDirs.length} shard folder${shardDirs.length === 1 ? "" : "s"} into ${opts.out}: ${merged.length} submissions, ${errors} error${errors === 1 ? "" : "s"}.`);
  return merged;
}

/** The row with its report copied into the merged gradebook's reports folder, and its path made relative to the new gradebook. */
function withReportCopied(row: Row & { reportFile?: string }, out: string): Row {
  const { reportFile, ...plain } = row;
  if (!reportFile || !fs.existsSync(reportFile)) return { ...plain, reportPath: undefined };
  const to = path.join(gradebookPaths(out).reports, path.basename(reportFile));
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(reportFile, to);
  return { ...plain, reportPath: path.relative(path.dirname(out), to).split(path.sep).join("/") };
}
