// The grade report as one self-contained HTML file (`.grade/report.html`, `--html <file>`): the
// scoreboard, each failure's story, picture and replay command, readable from disk in any
// browser. Nothing is loaded from anywhere: one inline stylesheet, one inline script, and a
// Content-Security-Policy that allows exactly those two (by hash) and nothing else, so that even
// a story that slipped past the escaping could neither run a script nor fetch a thing.
import { createHash } from "node:crypto";
import type { Report } from "../report.js";
import { gradedWithLine } from "../graded-with.js";
import { checkedLine, partialLine } from "../words.js";
import { deliverableSection, pointsOf, sectionId } from "./checks.js";
import { COPY_SCRIPT } from "./copy-script.js";
import { esc } from "./escape.js";
import { STYLE } from "./style.js";

/** The CSP source that allows exactly `text` as an inline <style> or <script>. */
function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The last full grade's page, which a partial grade's page names: where it is (`href` from this page), when it was written, and the target it graded. */
export interface FullGradePage {
  file: string;
  href: string;
  writtenAt: Date;
  target?: string;
}

/** The score at the top: core points and bonus, or the partial grade's line and where the last full grade's page is. */
function totals(report: Report, fullGrade: FullGradePage | null | undefined): string {
  if (report.partial) return `<p class="partial">${esc(partialLine(report))}.</p>${fullGradeNote(fullGrade)}`;
  const bonus = report.maxBonus > 0 ? `<p class="total">Bonus ${esc(`${report.bonus}/${report.maxBonus}`)}</p>` : "";
  return `<div class="totals"><p class="total">Score ${esc(`${report.score}/${report.maxScore}`)}</p>${bonus}</div>`;
}

/** Where the last full grade's page is, on a partial grade's page; nothing when the page is not in .grade/ (undefined: --html). */
function fullGradeNote(fullGrade: FullGradePage | null | undefined): string {
  if (fullGrade === undefined) return "";
  if (fullGrade === null) return `<p class="note">No full grade's page is there yet: <code>npm run grade</code> writes one to <code>.grade/report.html</code>.</p>`;
  const of = fullGrade.target === undefined ? "" : ` (a grade of ${esc(fullGrade.target || "starter")})`;
  return `<p class="note">The last full grade's page${of}, <a href="${esc(fullGrade.href)}">${esc(fullGrade.file)}</a> (written ${esc(localTime(fullGrade.writtenAt))}), is still there: a grade with <code>--only</code> writes its own page here, beside it.</p>`;
}

/** "2026-12-04 17:40", in this machine's time zone. */
function localTime(d: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The scoreboard: one row per deliverable, linked to its section, with its points. */
function board(report: Report): string {
  const rows = report.deliverables.map(
    (d) => `<tr><td><a href="#${esc(sectionId(d))}">${esc(d.title)}</a></td><td class="points">${esc(pointsOf(d))}${d.kind === "bonus" ? ' <span class="kind">(bonus)</span>' : ""}</td></tr>`,
  );
  return `<table class="board"><thead><tr><th scope="col">deliverable</th><th scope="col" class="points">points</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/**
 * The report as one self-contained HTML page; every text from the report is escaped. A partial
 * grade's page in .grade/partial/ is given `fullGrade`, the last full grade's page beside it (null: none yet).
 */
export function renderHtmlReport(report: Report, opts: { fullGrade?: FullGradePage | null } = {}): string {
  const target = report.target || "starter";
  const failed = report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "failed" || c.status === "error").length;
  const title = report.partial ? `Checkpoint lab, partial: ${target}` : `Checkpoint lab ${report.score}/${report.maxScore}: ${target}`;
  const csp = `default-src 'none'; style-src ${hashSource(STYLE)}; script-src ${hashSource(COPY_SCRIPT)}; base-uri 'none'; form-action 'none'`;
  const rootNote = report.targetUser?.root && !report.targetUser.separate ? `<p class="warning">Note: the submitted code ran as the grader's own user (${esc(report.targetUser.why ?? "")}): it could reach the grader's files.</p>`
    : report.targetUser?.separate && report.targetUser.network ? `<p class="warning">Note: the submitted code could use the network: ${esc(report.targetUser.networkWhy ?? "")}.</p>` : "";
  const waiting = report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "blocked").length;
  const lead =
    failed > 0 ? `${failed} check${failed === 1 ? "" : "s"} did not pass: each one below says what happened, and gives the command that replays it or grades it again.`
    : waiting > 0 ? `No check failed; ${waiting} wait${waiting === 1 ? "s" : ""} on another check.`
    : "Every check graded here passed.";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="page">
<header>
<h1>Checkpoint lab</h1>
<p class="meta">${report.partial ? "Partial" : "Full"} grade of <code>${esc(target)}</code>, seed ${esc(report.seed)}: ${esc(checkedLine(report, report.stats.durationMs / 1000))}.${report.gradedWith ? ` ${esc(gradedWithLine(report.gradedWith))}` : ""}</p>
${totals(report, opts.fullGrade)}
<p class="note">${esc(lead)}</p>
${rootNote}
</header>
<main>
<nav aria-label="Deliverables">${board(report)}</nav>
${report.deliverables.map(deliverableSection).join("\n")}
</main>
<footer>Written from the grade's JSON report (<code>.grade/report.json</code> after a full <code>npm run grade</code>, <code>.grade/partial/report.json</code> after one with <code>--only</code>). This page loads nothing from the network.</footer>
</div>
<script>${COPY_SCRIPT}</script>
</body>
</html>
`;
}
