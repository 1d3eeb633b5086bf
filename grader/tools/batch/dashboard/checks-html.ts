// The dashboard's checks: each check's pass rate across the class (the most often lost first),
// then, for each check lost, its failures grouped by kind: how many students, which ones, what
// went wrong and where, and the shortest of their stories (with its picture) for all of them.
import { esc } from "../../../report/html/escape.js";
import { pictureSvg } from "../../../report/html/picture-svg.js";
import { STATUS_WORD } from "../../../report/html/words.js";
import type { ClassSummary } from "./class-summary.js";
import { barSvg } from "./distributions-html.js";
import type { CheckAcross, FailureGroup } from "./failure-groups.js";
import { plural, studentLink } from "./rows-html.js";

/** The id of a check's section of lost points, for links from its pass rate. */
export function lossesId(checkId: string): string {
  return `lost-${checkId}`;
}

/** A whole percentage: "65%". */
function percent(n: number, of: number): string {
  return `${of === 0 ? 0 : Math.round((100 * n) / of)}%`;
}

/** "3 failed, 2 wait on another check, 1 could not be run". */
function lostWords(c: CheckAcross): string {
  const parts = [c.failed > 0 ? `${c.failed} failed` : "", c.blocked > 0 ? `${c.blocked} ${c.blocked === 1 ? "waits" : "wait"} on another check` : "", c.error > 0 ? `${c.error} could not be run` : ""];
  return parts.filter(Boolean).join(", ");
}

function rateRow(c: CheckAcross): string {
  const lost = c.graded - c.passed;
  const title = lost > 0 ? `<a href="#${esc(lossesId(c.id))}">${esc(c.title)}</a>` : esc(c.title);
  return [
    `<tr data-check="${esc(c.id)}" data-passed="${c.passed}" data-graded="${c.graded}">`,
    `<td>${title}<code class="id">${esc(c.id)}</code></td>`,
    `<td class="rate"><span class="rate-words">${c.passed} of ${c.graded} passed (${percent(c.passed, c.graded)})</span>${barSvg(c.passed, c.graded, "rate")}</td>`,
    // How they lost it, when not all of them by failing it.
    `<td class="lost-words">${lost === 0 ? "lost by none" : c.failed === lost ? `lost by ${lost}` : `lost by ${lost}: ${esc(lostWords(c))}`}</td>`,
    `<td class="n">${plural(c.maxPoints, "point")}</td>`,
    "</tr>",
  ].join("");
}

/** The pass rate of every check graded, the most often lost first, each linking to its groups of failures. */
export function passRatesSection(summary: ClassSummary): string {
  const body =
    summary.checks.length === 0
      ? '<p class="note">No check was graded.</p>'
      : `<table class="rates"><thead><tr><th scope="col">check</th><th scope="col">passed</th><th scope="col">lost</th><th scope="col" class="n">worth</th></tr></thead><tbody>${summary.checks.map(rateRow).join("")}</tbody></table>`;
  return `<section id="checks" aria-labelledby="checks-title"><h2 id="checks-title">Pass rate of each check</h2>
<p class="note">Of the graded students, how many passed each check; the checks most often lost come first.</p>
${body}</section>`;
}

/** One group: its size and kind in the row, the students and the shortest story (with its picture) inside. */
function groupDetails(g: FailureGroup): string {
  const example = g.example.check;
  const picture = example.picture ? `<figure class="picture" data-picture="${esc(example.id)}">${pictureSvg(example.picture)}<figcaption>${esc(g.example.submission)}'s failure, drawn.</figcaption></figure>` : "";
  const story = example.message ? `<pre class="story">\n${esc(example.message)}</pre>` : '<p class="note">No story was told for it.</p>';
  const shortest = g.students.length > 1 ? `The shortest of their stories, ${esc(g.example.submission)}'s:` : `${esc(g.example.submission)}'s story:`;
  return [
    `<details class="group" data-kind="${esc(g.kind.key)}" data-status="${g.status}" data-students="${g.students.length}">`,
    `<summary><span class="status">${esc(plural(g.students.length, "student"))}</span>`,
    `<span class="what"><span class="outcome">${esc(g.kind.outcome)}</span>${g.kind.place ? `<span class="place">${esc(g.kind.place)}</span>` : ""}</span></summary>`,
    `<div class="body"><p class="who">${g.students.map(studentLink).join(", ")}</p>`,
    `<p class="note">${shortest}</p>${picture}${story}</div>`,
    "</details>",
  ].join("");
}

function checkLosses(c: CheckAcross): string {
  const lost = c.graded - c.passed;
  const kinds = plural(c.groups.length, "kind");
  return [
    `<section class="check-losses" id="${esc(lossesId(c.id))}" data-check="${esc(c.id)}" aria-labelledby="${esc(lossesId(c.id))}-title">`,
    `<header><h3 id="${esc(lossesId(c.id))}-title">${esc(c.title)}<code class="id">${esc(c.id)}</code></h3>`,
    `<p>Lost by ${lost} of ${c.graded} (${esc(lostWords(c))}), ${c.maxPoints} points each; ${esc(kinds)} of failure. Open one for its students and a story.</p></header>`,
    `<ul class="groups">${c.groups.map((g) => `<li>${groupDetails(g)}</li>`).join("")}</ul>`,
    "</section>",
  ].join("");
}

/** For each check someone lost, the most often lost first, its failures grouped by kind. */
export function lossesSection(summary: ClassSummary): string {
  const lost = summary.checks.filter((c) => c.passed < c.graded);
  const body = lost.length === 0 ? '<p class="note">No graded student lost a point.</p>' : lost.map(checkLosses).join("\n");
  return `<section id="lost" aria-labelledby="lost-title"><h2 id="lost-title">Why points were lost</h2>
<p class="note">Each check's failures grouped by kind: the same outcome (what the code did wrong) at the same place (where the crash fell, from the failure's picture), whatever numbers, temp names and states the grade chose for each student. A group that ${esc(STATUS_WORD.blocked)} on another check lost its points to that check.</p>
${body}</section>`;
}
