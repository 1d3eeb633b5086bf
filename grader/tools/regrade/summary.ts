// The regrade's job summary (Markdown, for GITHUB_STEP_SUMMARY): how many students, how many
// graded and how many errors, the median score per deliverable and in total, then every error row
// with its reason, every clone whose grader files were modified and, with a roster map, the
// repositories it does not name.
import type { Rubric } from "../../rubric.js";
import type { Row } from "../batch/gradebook.js";

/** The summary of a merged gradebook's rows; `rosterMap` names the roster map that gave them their student ids, when one did. */
export function regradeSummary(rubric: Rubric, rows: Row[], opts: { rosterMap?: string } = {}): string {
  const graded = rows.filter((r) => !r.error && r.report);
  const errors = rows.filter((r) => r.error);
  const lines = [`## Regrade: ${count(rows.length, "student")}, ${graded.length} graded, ${count(errors.length, "error")}`, ""];
  const only = graded.find((r) => r.report!.partial)?.report!.partial!.only;
  if (only) lines.push(`Graded with \`--only ${only.join(",")}\`: a partial grade, the points of those checks only.`, "");
  if (graded.length > 0) {
    lines.push("| | median | out of |", "|---|--:|--:|");
    lines.push(`| core score | ${median(graded.map((r) => r.report!.score))} | ${outOf(graded.map((r) => r.report!.maxScore))} |`);
    if (graded.some((r) => r.report!.maxBonus > 0)) lines.push(`| bonus | ${median(graded.map((r) => r.report!.bonus))} | ${outOf(graded.map((r) => r.report!.maxBonus))} |`);
    for (const d of rubric.deliverables.filter((d) => d.enabled)) {
      const reports = graded.map((r) => r.report!.deliverables.find((x) => x.id === d.id && x.status === "graded")).filter((x) => x !== undefined);
      lines.push(reports.length === 0 ? `| \`${d.id}\` | not graded | |` : `| \`${d.id}\` | ${median(reports.map((x) => x.points))} | ${outOf(reports.map((x) => x.maxPoints))} |`);
    }
    lines.push("");
  }
  if (errors.length > 0) {
    lines.push(`### ${count(errors.length, "error")}`, "", "| submission | error |", "|---|---|");
    for (const r of errors) lines.push(`| \`${r.submission}\` | ${cell(r.error!)} |`);
    lines.push("");
  }
  const modified = rows.filter((r) => r.modified.length > 0);
  if (modified.length > 0) {
    lines.push(`### Grader files modified in ${count(modified.length, "repository", "repositories")}`, "", "Graded with the pristine grader all the same.", "", "| submission | modified |", "|---|---|");
    for (const r of modified) lines.push(`| \`${r.submission}\` | ${cell(r.modified.join(", "))} |`);
    lines.push("");
  }
  const notInMap = opts.rosterMap === undefined ? [] : rows.filter((r) => r.studentId === undefined);
  if (notInMap.length > 0) {
    lines.push(`### Not in the roster map: ${count(notInMap.length, "repository", "repositories")}`, "", `${cell(opts.rosterMap!)} names none of these, so their student id is empty: add them to it and merge again.`, "");
    lines.push(notInMap.map((r) => `\`${r.submission}\``).join(", "), "");
  }
  return lines.join("\n");
}

/** The median of `values` (the mean of the middle two when there is an even number), to one decimal. */
export function median(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return String(Math.round(value * 10) / 10);
}

/** The maximum the rows were graded out of: one number when they agree, else the range. */
function outOf(maxima: number[]): string {
  const low = Math.min(...maxima);
  const high = Math.max(...maxima);
  return low === high ? String(low) : `${low} to ${high}`;
}

/** Text safe in a Markdown table cell: one line, no column break, no HTML. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\|/g, "\\|");
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
