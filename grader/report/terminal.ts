// The scoreboard printed by `npm run grade`: colours on a terminal, plain text when piped.
import pc from "picocolors";
import stringWidth from "string-width";
import type { MeasurementReport } from "../contract/measurement.js";
import { notStartedLine } from "./not-started.js";
import { restoreCommand, sharedWait, wholeFileFailure } from "./whole-file.js";
import { checkedLine, commandLabel, fromCacheWords, partialLine } from "./words.js";
import { commandLines, hanging, titleRow } from "./layout.js";
import { pictureLines } from "./picture-lines.js";
import type { CheckReport, Report } from "./report.js";
import type { Rubric } from "../rubric.js";

const MARK = { passed: "✓", failed: "✗", blocked: "–", error: "!" } as const;

/**
 * Renders the report as the student reads it, laid out for `width` columns (80 by default). With
 * the grade's `rubric`, a full grade in which nothing is started ends with where to start.
 */
export function renderScoreboard(report: Report, opts: { color: boolean; seconds: number; width?: number; rubric?: Pick<Rubric, "deliverables"> }): string {
  const c = pc.createColors(opts.color);
  const width = opts.width ?? 80;
  const text = (line: string, indent = 0) => hanging(line, { indent, width });
  const out: string[] = [...text(c.bold(scoreboardHeader(report))), ""];
  const told = new Map<string, string>();
  for (const d of report.deliverables) {
    const score = d.status === "not-graded" ? c.dim("not graded yet") : scoreColor(c, d.points, d.maxPoints)(`${d.points}/${d.maxPoints}`);
    out.push(...titleRow(c.bold(d.title), `${score}${d.kind === "bonus" ? c.dim(" (bonus)") : ""}`, { indent: 0, width }));
    if (d.partial) out.push(...text(c.dim(`${d.maxPoints} of its ${d.partial.maxPoints} points were graded here`), 2));
    if (d.cached) out.push(...text(c.dim(fromCacheWords(d)), 2));
    // Not started: one line, not one story per check that all say the same.
    if (d.notStarted) out.push(...text(c.yellow(`${MARK.blocked} ${notStartedLine(d.notStarted)}`), 2));
    // A file missing or not compiling: one line, which every check here waits on; the command
    // that restores a missing file on a line of its own, so that it pastes whole.
    else if (wholeFileFailure(d)) {
      const { said, command } = restoreCommand(wholeFileFailure(d)!, d.checks.find((k) => k.cause?.wholeFile)?.cause?.restore);
      out.push(...text(c.red(`${MARK.failed} ${said}`), 2), ...(command ? commandLines("", command, { indent: 4, width }).map((l) => c.cyan(l)) : []));
    }
    // Every check waits on the same one: one line, not one row each saying the same.
    else if (sharedWait(d)) out.push(...text(c.yellow(`${MARK.blocked} ${sharedWait(d)}`), 2));
    else {
      // Every check passed with the same note (with a stand-in, for a file of an earlier phase
      // that does not compile): told once, under the deliverable, not once and then "the same story" per check.
      const note = d.checks.length > 1 && d.checks.every((k) => k.status === "passed" && k.message && k.message === d.checks[0]!.message) ? d.checks[0]!.message! : undefined;
      if (note) for (const line of note.split("\n")) out.push(...text(c.dim(line), 2));
      for (const check of d.checks) out.push(...renderCheck(c, note ? { ...check, message: undefined } : check, width, told));
    }
    for (const m of d.measurements ?? []) out.push(...renderMeasurement(c, m, width));
    out.push("");
  }
  // Said once: a grade as root that could not keep the submitted code away from the grader.
  if (report.targetUser?.root && !report.targetUser.separate) out.push(...text(c.yellow(`Note: the submitted code ran as the grader's own user (${report.targetUser.why}): it could reach the grader's files.`)), "");
  if (report.targetUser?.separate && report.targetUser.network) out.push(...text(c.yellow(`Note: the submitted code could use the network: ${report.targetUser.networkWhy}.`)), "");
  const bonus = report.maxBonus > 0 ? `, bonus ${report.bonus}/${report.maxBonus}` : "";
  const total = report.partial ? c.bold(partialLine(report)) : c.bold(`Score ${report.score}/${report.maxScore}${bonus}`);
  out.push(...text(total + c.dim(` · ${checkedLine(report, opts.seconds)}`)));
  const start = opts.rubric && firstStep(report, opts.rubric);
  if (start) out.push(...text(c.bold(start)));
  return out.join("\n");
}

/**
 * "Start with Phase 1: starter/checkpoint.ts (HANDOUT.md, Phase 1)": the manifest's first
 * deliverable and its file, for a full grade in which no deliverable is started (the untouched
 * starter); null for any other grade.
 */
export function firstStep(report: Report, rubric: Pick<Rubric, "deliverables">): string | null {
  const graded = report.deliverables.filter((d) => d.status === "graded");
  if (report.partial || graded.length === 0 || graded.some((d) => !d.notStarted)) return null;
  const first = rubric.deliverables.find((d) => d.enabled && d.checks.length > 0);
  if (!first) return null;
  // "Phase 1: atomic checkpoint" is "## Phase 1: an atomic checkpoint" in the handout: the part before the colon names both.
  const name = first.title.split(":")[0]!.trim();
  return `Start with ${name}: ${report.target || "starter"}/${first.file} (HANDOUT.md, ${name})`;
}

/** A check's row, its note when it passed with one, and for one that did not pass its story (or, when `told` holds the same story for an earlier check, a reference to it) and replay. */
function renderCheck(c: ReturnType<typeof pc.createColors>, check: CheckReport, width: number, told: Map<string, string>): string[] {
  const color = check.status === "passed" ? c.green : check.status === "blocked" ? c.yellow : c.red;
  const lines = titleRow(check.title, color(`${check.points}/${check.maxPoints}`), { indent: 2, width, mark: color(MARK[check.status]) });
  const message = check.message ?? "";
  // A check passed with a note (with the reference's file in place of yours, or with nothing to test) says so.
  const note = check.status === "passed" ? c.dim : (text: string) => text;
  if (check.status === "passed" && !message) return lines;
  if (check.status !== "passed") lines.push(c.dim(`      ${check.id}`));
  const earlier = told.get(message);
  if (earlier) lines.push(...hanging(note(`The same story as ${earlier} above.`), { indent: 6, width }));
  else if (check.picture) lines.push(...pictureLines(check.picture, { width, indent: 6, c }));
  if (!earlier) for (const line of message.split("\n")) lines.push(...hanging(note(line), { indent: 6, width }));
  // Only a story of a few lines or more is worth a reference.
  if (!earlier && message.split("\n").length + message.length / width > 2) told.set(message, check.id);
  // A command without --replay grades the check again: a partial grade, and labelled so.
  if (check.replay) lines.push(...commandLines(`${commandLabel(check.replay)}: `, check.replay, { indent: 6, width }).map((l) => c.cyan(l)));
  return lines;
}

/**
 * A measurement as an indented table: its title, a header row, then one row per label. A table
 * wider than the terminal is told row by row instead: each label, then each column's cell.
 */
function renderMeasurement(c: ReturnType<typeof pc.createColors>, m: MeasurementReport, width: number): string[] {
  const labelWidth = Math.max(0, ...m.rows.map((r) => stringWidth(r.label)));
  const widths = m.columns.map((col, i) => Math.max(stringWidth(col), ...m.rows.map((r) => stringWidth(r.cells[i] ?? ""))));
  const pad = (text: string, to: number) => text + " ".repeat(Math.max(0, to - stringWidth(text)));
  const line = (label: string, cells: string[]) => `    ${pad(label, labelWidth)}  ${cells.map((cell, i) => pad(cell, widths[i]!)).join("  ")}`.trimEnd();
  const lines = ["", ...hanging(c.bold(m.title), { indent: 2, width })];
  const tableWidth = 4 + labelWidth + widths.reduce((sum, w) => sum + 2 + w, 0);
  if (m.rows.length > 0 && tableWidth <= width) lines.push(c.dim(line("", m.columns)), ...m.rows.map((r) => line(r.label, r.cells)));
  else
    for (const r of m.rows) {
      lines.push(...hanging(r.label, { indent: 4, width }));
      lines.push(...hanging(m.columns.map((col, i) => `${c.dim(`${col}:`)} ${r.cells[i] ?? ""}`).join("; "), { indent: 6, width }));
    }
  for (const note of m.note?.split("\n") ?? []) lines.push(...hanging(c.dim(note), { indent: 4, width }));
  return lines;
}

function scoreColor(c: ReturnType<typeof pc.createColors>, points: number, max: number) {
  return points === max ? c.green : points === 0 ? c.red : c.yellow;
}

/** The scoreboard's first line; the live progress (live/start.ts) shows it from the start of a grade. */
export function scoreboardHeader(grade: { target: string; seed: number }): string {
  return `Checkpoint lab: grading ${grade.target} (seed ${grade.seed})`;
}
