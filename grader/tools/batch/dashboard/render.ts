// The class dashboard (<gradebook>.html, beside the CSV): one self-contained page, like the
// grade's own HTML report and with its stylesheet. It loads nothing: one inline stylesheet, no
// script, and a Content-Security-Policy that allows that stylesheet (by hash) and nothing else, so
// a story that slipped past the escaping could neither run a script nor fetch a thing.
import { createHash } from "node:crypto";
import { esc } from "../../../report/html/escape.js";
import type { ClassSummary } from "./class-summary.js";
import { lossesSection, passRatesSection } from "./checks-html.js";
import { distributionsSection } from "./distributions-html.js";
import { errorsSection, modifiedSection, notInMapSection, plural } from "./rows-html.js";
import { DASHBOARD_STYLE } from "./style.js";

/** "2026-03-01 14:05 UTC": the same on every machine. */
export function whenWords(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The header: how many students, graded and errors, when, with which seed, out of how many points. */
function header(s: ClassSummary): string {
  const figures = [
    `<li data-figure="students"><span class="n">${s.students}</span>${s.students === 1 ? "student" : "students"}</li>`,
    `<li data-figure="graded"><span class="n">${s.graded}</span>graded</li>`,
    `<li data-figure="errors" class="${s.errors > 0 ? "error" : ""}"><span class="n">${s.errors}</span>${s.errors === 1 ? "error" : "errors"}</li>`,
    `<li data-figure="max"><span class="n">${s.rubricMax.core}</span>core points${s.rubricMax.bonus > 0 ? ` and ${s.rubricMax.bonus} bonus` : ""} in the rubric</li>`,
  ];
  const seed = s.seeds.length === 0 ? "" : `, seed ${s.seeds.join(", ")}`;
  const partial = s.only ? `<p class="partial">A partial grade (--only ${esc(s.only.join(","))}): the numbers below are of those checks only.</p>` : "";
  return `<header>
<h1>Class gradebook</h1>
<p class="meta">Graded <time datetime="${esc(s.gradedAt)}">${esc(whenWords(s.gradedAt))}</time>${esc(seed)}.</p>
<ul class="figures">${figures.join("")}</ul>
${partial}
<nav class="sections" aria-label="Sections"><ul>
<li><a href="#scores">Scores</a></li><li><a href="#checks">Pass rates</a></li><li><a href="#lost">Why points were lost</a></li>
<li><a href="#modified">Grader files modified (${s.modified.length})</a></li><li><a href="#errors">Errors (${s.errorRows.length})</a></li>${s.rosterMap ? `<li><a href="#not-in-map">Not in the roster map (${s.rosterMap.notInMap.length})</a></li>` : ""}
</ul></nav>
</header>`;
}

/** The dashboard as one self-contained HTML page; every text from a report or a row is escaped. */
export function renderDashboard(summary: ClassSummary): string {
  const csp = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(DASHBOARD_STYLE, "utf8").digest("base64")}'; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="color-scheme" content="light dark">
<title>${esc(`Class gradebook: ${plural(summary.students, "student")}, ${summary.graded} graded`)}</title>
<style>${DASHBOARD_STYLE}</style>
</head>
<body>
<div class="page">
${header(summary)}
<main>
${distributionsSection(summary)}
${passRatesSection(summary)}
${lossesSection(summary)}
${modifiedSection(summary)}
${errorsSection(summary)}
${notInMapSection(summary)}
</main>
<footer>Written by <code>npm run grade-batch</code> (or a regrade's merge) beside the gradebook's CSV and JSON; each name links to that student's JSON report. This page loads nothing from the network.</footer>
</div>
</body>
</html>
`;
}
