// The gradebook's files, side by side: <name>.csv (one row per submission), <name>.json (the
// rows, each pointing at its report, so shards' gradebooks can be merged into one) and
// <name>.html (the class dashboard). Reports stay in <name>-reports/, one JSON file each.
import fs from "node:fs";
import path from "node:path";
import { readReport } from "../../report/read-report.js";
import type { Rubric } from "../../rubric.js";
import { classSummary } from "./dashboard/class-summary.js";
import { renderDashboard } from "./dashboard/render.js";
import { gradebookCsv, type Row } from "./gradebook.js";

/** What <name>.json holds: every row without its report, which is read back from `reportPath`. */
export interface GradebookFile {
  gradebookVersion: 1;
  rows: Array<Omit<Row, "report">>;
}

/** The three files' paths from the CSV's: "x/grades.csv" gives x/grades.json and x/grades.html. */
export function gradebookPaths(csv: string): { csv: string; json: string; html: string; reports: string } {
  const base = csv.replace(/\.csv$/i, "");
  return { csv, json: `${base}.json`, html: `${base}.html`, reports: `${base}-reports` };
}

/** Writes the CSV and JSON gradebooks and the class dashboard for `rows` (each file whole, or not at all); the dashboard says it was graded at `gradedAt` (now, unless given). */
export function writeGradebook(opts: { csv: string; rubric: Rubric; rows: Row[]; gradedAt?: Date }): void {
  const paths = gradebookPaths(opts.csv);
  const json: GradebookFile = { gradebookVersion: 1, rows: opts.rows.map(({ report: _report, ...row }) => row) };
  writeWhole(paths.json, JSON.stringify(json, null, 2) + "\n");
  writeWhole(paths.csv, gradebookCsv(opts.rubric, opts.rows));
  writeWhole(paths.html, renderDashboard(classSummary(opts.rubric, opts.rows, opts.gradedAt ?? new Date())));
}

/** The rows of a gradebook written by `writeGradebook`, each with its report read back (null when it has none or it cannot be read). */
export function readGradebook(jsonFile: string): Row[] {
  const file = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as GradebookFile;
  if (file.gradebookVersion !== 1 || !Array.isArray(file.rows)) throw new Error(`${path.basename(jsonFile)} is not a gradebook of this grader (expected gradebookVersion 1 and rows)`);
  return file.rows.map((row) => ({ ...row, report: row.reportPath ? reportOrNull(path.join(path.dirname(jsonFile), row.reportPath)) : null }));
}

function reportOrNull(file: string) {
  try {
    return readReport(file);
  } catch {
    return null;
  }
}

function writeWhole(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const own = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(own, text);
  fs.renameSync(own, file);
}
