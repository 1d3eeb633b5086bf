// The gradebook: one CSV row per submission (RFC 4180), with the points of each deliverable.
import type { Report } from "../../report/report.js";
import type { Rubric } from "../../rubric.js";

export interface Row {
  submission: string;
  /** The grade's report, when it wrote one (an error row may have one too). */
  report: Report | null;
  /** Why the row is an error; unset for a graded submission. */
  error?: string;
  /** Pristine files the submission changed. */
  modified: string[];
  /** The report's path relative to the gradebook, when there is a report. */
  reportPath?: string;
}

/** The deliverables that get a column: the rubric's enabled ones, in its order. */
function columns(rubric: Rubric): string[] {
  return rubric.deliverables.filter((d) => d.enabled).map((d) => d.id);
}

/** The gradebook's text: a header, then one line per row, each ended by CRLF. */
export function gradebookCsv(rubric: Rubric, rows: Row[]): string {
  const header = ["submission", "status", "core score", "core max", "bonus", "bonus max", ...columns(rubric), "modified", "error", "report"];
  return [header, ...rows.map((r) => cells(rubric, r))].map((line) => line.map(csvField).join(",") + "\r\n").join("");
}

function cells(rubric: Rubric, row: Row): string[] {
  const r = row.report;
  const points = (id: string) => {
    const d = r?.deliverables.find((d) => d.id === id && d.status === "graded");
    return d ? String(d.points) : "";
  };
  const totals = r ? [r.score, r.maxScore, r.bonus, r.maxBonus].map(String) : ["", "", "", ""];
  return [row.submission, row.error ? "error" : "graded", ...totals, ...columns(rubric).map(points), row.modified.join(", "), row.error ?? "", row.reportPath ?? ""];
}

/** One field, quoted when it holds a comma, a quote or a line break (quotes doubled inside). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
