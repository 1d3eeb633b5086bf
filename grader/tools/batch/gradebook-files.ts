// The gradebook's files, side by side: <name>.csv (one row per submission), <name>.json (the
// rows, each pointing at its report, so shards' gradebooks can be merged into one),
// <name>.html (the class dashboard) and, with a roster map, <name>-canvas.csv (for Canvas's
// gradebook import). Reports stay in <name>-reports/, one JSON file each.
import fs from "node:fs";
import path from "node:path";
import { readReport } from "../../report/read-report.js";
import { writeWhole } from "../../write-whole.js";
import type { Rubric } from "../../rubric.js";
import { classSummary } from "./dashboard/class-summary.js";
import { renderDashboard } from "./dashboard/render.js";
import { canvasCsv } from "./canvas.js";
import { gradebookCsv, type Row } from "./gradebook.js";
import type { RosterMap } from "./roster-map.js";

/** What <name>.json holds: every row without its report, which is read back from `reportPath`, and the roster map that gave the rows their student ids, when one did. */
export interface GradebookFile {
  gradebookVersion: 1;
  rosterMap?: string;
  rows: Array<Omit<Row, "report">>;
}

/** The files' paths from the CSV's: "x/grades.csv" gives x/grades.json, x/grades.html and, with a roster map, x/grades-canvas.csv. */
export function gradebookPaths(csv: string): { csv: string; json: string; html: string; reports: string; canvas: string } {
  const base = csv.replace(/\.csv$/i, "");
  return { csv, json: `${base}.json`, html: `${base}.html`, reports: `${base}-reports`, canvas: `${base}-canvas.csv` };
}

/**
 * Writes the CSV and JSON gradebooks and the class dashboard for `rows` (each file whole, or not
 * at all); the dashboard says it was graded at `gradedAt` (now, unless given). With `rosterMap`
 * (the roster map applied to the rows) the CSV has a student id column, the dashboard lists the
 * submissions the map does not name, and <name>-canvas.csv is the gradebook for Canvas's import.
 */
export function writeGradebook(opts: { csv: string; rubric: Rubric; rows: Row[]; gradedAt?: Date; rosterMap?: Pick<RosterMap, "file" | "idColumn"> }): void {
  const paths = gradebookPaths(opts.csv);
  const map = opts.rosterMap;
  const json: GradebookFile = { gradebookVersion: 1, ...(map ? { rosterMap: map.file } : {}), rows: opts.rows.map(({ report: _report, ...row }) => row) };
  writeInFolder(paths.json, JSON.stringify(json, null, 2) + "\n");
  writeInFolder(paths.csv, gradebookCsv(opts.rubric, opts.rows, { studentIds: map !== undefined }));
  if (map) writeInFolder(paths.canvas, canvasCsv(opts.rows, map.idColumn));
  writeInFolder(paths.html, renderDashboard(classSummary(opts.rubric, opts.rows, opts.gradedAt ?? new Date(), map?.file)));
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

function writeInFolder(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeWhole(file, text);
}
