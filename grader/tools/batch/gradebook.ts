// The gradebook: one CSV row per submission (RFC 4180), with the points of each deliverable, then
// (appended, so that the columns before keep their places) the student id a roster map gave it
// and the points of each check.
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
  /** The student's id, from the roster map, when one was given and names this submission. */
  studentId?: string;
}

/** The deliverables that get a column: the rubric's enabled ones, in its order. */
function columns(rubric: Rubric): string[] {
  return rubric.deliverables.filter((d) => d.enabled).map((d) => d.id);
}

/** The checks that get a column: every check of the rubric's enabled deliverables, in its order. */
function checkColumns(rubric: Rubric): { deliverable: string; check: string }[] {
  return rubric.deliverables.filter((d) => d.enabled).flatMap((d) => d.checks.map((c) => ({ deliverable: d.id, check: c.id })));
}

/** The gradebook's text: a header, then one line per row, each ended by CRLF; a `student id` column when a roster map was given. */
export function gradebookCsv(rubric: Rubric, rows: Row[], opts: { studentIds?: boolean } = {}): string {
  const header = ["submission", "status", "core score", "core max", "bonus", "bonus max", ...columns(rubric), "modified", "error", "report", ...(opts.studentIds ? ["student id"] : []), ...checkColumns(rubric).map((c) => c.check)];
  return [header, ...rows.map((r) => cells(rubric, r, opts))].map((line) => line.map(csvField).join(",") + "\r\n").join("");
}

/** A row's cells; a deliverable or check its report did not grade (--only, an error row without a report) is empty, not 0. */
function cells(rubric: Rubric, row: Row, opts: { studentIds?: boolean }): string[] {
  const r = row.report;
  const graded = (id: string) => r?.deliverables.find((d) => d.id === id && d.status === "graded");
  const points = (id: string) => {
    const d = graded(id);
    return d ? String(d.points) : "";
  };
  const checkPoints = ({ deliverable, check }: { deliverable: string; check: string }) => {
    const c = graded(deliverable)?.checks.find((c) => c.id === check);
    return c ? String(c.points) : "";
  };
  const totals = r ? [r.score, r.maxScore, r.bonus, r.maxBonus].map(String) : ["", "", "", ""];
  return [row.submission, row.error ? "error" : "graded", ...totals, ...columns(rubric).map(points), row.modified.join(", "), row.error ?? "", row.reportPath ?? "", ...(opts.studentIds ? [row.studentId ?? ""] : []), ...checkColumns(rubric).map(checkPoints)];
}

/** One field, quoted when it holds a comma, a quote or a line break (quotes doubled inside). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
