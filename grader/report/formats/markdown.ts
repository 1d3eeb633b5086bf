// The grade as Markdown: a job summary on GitHub, release notes on Classroom 50, or a file to
// read. Scores first, then each deliverable's checks, each lost point with its picture (as text),
// story and replay.
import type { MeasurementReport } from "../../contract/measurement.js";
import pc from "picocolors";
import { gradedWithLine } from "../graded-with.js";
import { notStartedLine } from "../not-started.js";
import { pictureLines } from "../picture-lines.js";
import { checkedLine, commandTitle, partialLine } from "../words.js";
import type { CheckReport, Report } from "../report.js";
import { selectedDeliverables, type ReportFormat } from "./format.js";

const NO_COLOUR = pc.createColors(false);
const MARK = { passed: "✅", failed: "❌", blocked: "⏸️", error: "⚠️" } as const;

/** The report as Markdown, for the deliverables `only` names (all when none). */
export function markdown(report: Report, only: string[] = []): string {
  const deliverables = selectedDeliverables(report, { env: {}, only });
  const bonus = report.maxBonus > 0 ? `, bonus ${report.bonus}/${report.maxBonus}` : "";
  const head = report.partial ? `## Checkpoint lab, partial\n\n${partialLine(report)}.` : `## Checkpoint lab: ${report.score}/${report.maxScore}${bonus}`;
  const out = [head, "", "| deliverable | points |", "|---|---|"];
  for (const d of deliverables) out.push(`| ${cell(d.title)} | ${d.status === "graded" ? `${d.points}/${d.maxPoints}` : "not graded yet"}${d.kind === "bonus" ? " (bonus)" : ""} |`);
  for (const d of deliverables.filter((d) => d.status === "graded")) {
    out.push("", `### ${d.title}: ${d.points}/${d.maxPoints}${d.kind === "bonus" ? " (bonus)" : ""}`, "");
    if (d.notStarted) out.push(`- ${MARK.blocked} ${notStartedLine(d.notStarted)}`);
    else for (const c of d.checks) out.push(...renderCheck(c));
    for (const m of d.measurements ?? []) out.push(...renderMeasurement(m));
  }
  out.push("", `Target \`${report.target}\`, seed ${report.seed}, ${checkedLine(report, report.stats.durationMs / 1000)}.${report.gradedWith ? ` ${gradedWithLine(report.gradedWith)}` : ""}`);
  return out.join("\n") + "\n";
}

function renderCheck(c: CheckReport): string[] {
  const lines = [`- ${MARK[c.status]} \`${c.id}\` ${c.title}: **${c.points}/${c.maxPoints}**`];
  // A check passed with a note (with a reference file in place of the student's, or with nothing to test) says so.
  if (c.status === "passed") return c.message ? [...lines, "", "  ```text", ...c.message.split("\n").map((l) => `  ${fence(l)}`), "  ```", ""] : lines;
  // The failure's picture, drawn as the terminal draws it (80 columns, no colour), above its story: a
  // job summary or a release body shows it in the same monospaced block, where no image could go.
  const picture = c.picture ? [...pictureLines(c.picture, { width: 80, indent: 0, c: NO_COLOUR }), ""] : [];
  lines.push("", "  <details><summary>What happened</summary>", "", "  ```text", ...[...picture, ...(c.message ?? "").split("\n")].map((l) => `  ${fence(l)}`), "  ```");
  if (c.replay) lines.push("", `  ${commandTitle(c.replay)}: \`${c.replay}\``);
  lines.push("", "  </details>", "");
  return lines;
}

function renderMeasurement(m: MeasurementReport): string[] {
  const lines = ["", `**${m.title}**`, ""];
  if (m.rows.length > 0) {
    lines.push(`| | ${m.columns.map(cell).join(" | ")} |`, `|---|${m.columns.map(() => "---|").join("")}`);
    for (const r of m.rows) lines.push(`| ${cell(r.label)} | ${r.cells.map(cell).join(" | ")} |`);
    lines.push("");
  }
  for (const note of m.note?.split("\n") ?? []) lines.push(`${note}  `);
  return lines;
}

/** Text safe inside a table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** A line that cannot close the code block it is in. */
function fence(line: string): string {
  return line.replace(/```/g, "`\u200b``");
}

export const markdownFormat: ReportFormat = {
  flag: "--markdown",
  describe: "the report as Markdown (a job summary, release notes)",
  render: (report, ctx) => markdown(report, ctx.only),
};
