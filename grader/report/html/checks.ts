// The HTML report's deliverables and checks: a section per deliverable with its points, and a
// <details> per check (focusable by its <summary>) whose row gives a mark and a word for its
// status, its title, id and points; inside, its picture (with the folder before and after the
// crash, for a crashed call or a crashed run replayed from its trace), its story and its replay command.
import { notStartedLine } from "../not-started.js";
import { sharedWait, wholeFileFailure } from "../whole-file.js";
import { capitalised, commandTitle, fromCacheWords } from "../words.js";
import type { MeasurementReport } from "../../contract/measurement.js";
import type { CheckReport, DeliverableReport } from "../report.js";
import { esc } from "./escape.js";
import { pictureFoldersHtml } from "./folders.js";
import { pictureSvg } from "./picture-svg.js";
import { MARK, STATUS_WORD } from "./words.js";

/** The id of a deliverable's section, for links from the scoreboard. */
export function sectionId(d: DeliverableReport): string {
  return `d-${d.id}`;
}

/** "12/35", or "not graded yet" for a deliverable with no checks. */
export function pointsOf(d: DeliverableReport): string {
  return d.status === "graded" ? `${d.points}/${d.maxPoints}` : "not graded yet";
}

/** A deliverable's section: its title and points, its notes, its checks, its measurements. */
export function deliverableSection(d: DeliverableReport): string {
  const notes: string[] = [];
  if (d.partial) notes.push(`${d.maxPoints} of its ${d.partial.maxPoints} points were graded here.`);
  if (d.cached) notes.push(`${capitalised(fromCacheWords(d))}.`);
  if (d.notStarted) notes.push(`${MARK.blocked} ${notStartedLine(d.notStarted)}. Open a check below for its own story.`);
  const whole = wholeFileFailure(d);
  if (whole) notes.push(`${MARK.failed} ${whole}${whole.endsWith(".") ? "" : "."} No check here could run without it.`);
  const waits = sharedWait(d);
  if (waits) notes.push(`${MARK.blocked} ${waits}`);
  if (d.status === "not-graded") notes.push("The grader has no checks for it yet.");
  return [
    `<section class="deliverable" id="${esc(sectionId(d))}" aria-labelledby="${esc(sectionId(d))}-title">`,
    `<header><h2 id="${esc(sectionId(d))}-title">${esc(d.title)}</h2><span class="points">${esc(pointsOf(d))}${d.kind === "bonus" ? ' <span class="kind">(bonus)</span>' : ""}</span></header>`,
    ...notes.map((n) => `<p class="note">${esc(n)}</p>`),
    d.checks.length > 0 ? `<ul class="checks">${d.checks.map((c) => `<li>${checkDetails(c, !d.notStarted && !whole)}</li>`).join("")}</ul>` : "",
    ...(d.measurements ?? []).map(measurementTable),
    "</section>",
  ].join("\n");
}

/** A check as a <details>: open when it failed (unless its deliverable is not started, which says so once). */
export function checkDetails(c: CheckReport, openFailures: boolean): string {
  const open = openFailures && (c.status === "failed" || c.status === "error") ? " open" : "";
  const summary = [
    `<summary><span class="status"><span class="mark" aria-hidden="true">${MARK[c.status]}</span> ${STATUS_WORD[c.status]}</span>`,
    `<span class="what"><span class="title">${esc(c.title)}</span><code class="id">${esc(c.id)}</code></span>`,
    `<span class="points" aria-label="${esc(`${c.points} of ${c.maxPoints} points`)}">${esc(`${c.points}/${c.maxPoints}`)}</span></summary>`,
  ].join("");
  return `<details class="check" id="c-${esc(c.id)}" data-check="${esc(c.id)}" data-status="${c.status}"${open}>${summary}<div class="body">${checkBody(c)}</div></details>`;
}

/** What a check holds beyond its row: its picture, its story (line breaks kept) and its replay command with a Copy button. */
function checkBody(c: CheckReport): string {
  const parts: string[] = [];
  if (c.picture) parts.push(`<figure class="picture" data-picture="${esc(c.id)}">${pictureSvg(c.picture)}<figcaption>What happened, drawn: the story below says the same in words.</figcaption></figure>`);
  if (c.picture) parts.push(pictureFoldersHtml(c.picture));
  // The newline after <pre> is the parser's to drop: a story that starts with one keeps it.
  if (c.message) parts.push(`<pre class="story">\n${esc(c.message)}</pre>`);
  // A check passed with no note has nothing to tell: its row says it all.
  else if (c.status !== "passed") parts.push(`<p class="note">No story was told for it.</p>`);
  if (c.replay) parts.push(`<div class="replay"><span class="label">${commandTitle(c.replay)}:</span><code class="command">${esc(c.replay)}</code><button type="button" class="copy" aria-label="${esc(`Copy the replay command of ${c.id}`)}">Copy</button><span class="copied" role="status"></span></div>`);
  return parts.join("");
}

/** A measurement the deliverable reported without scoring it, as a table. */
function measurementTable(m: MeasurementReport): string {
  const head = `<tr><th scope="col"></th>${m.columns.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr>`;
  const rows = m.rows.map((r) => `<tr><th scope="row">${esc(r.label)}</th>${r.cells.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("");
  const note = m.note ? `<p class="note">${m.note.split("\n").map(esc).join("<br>")}</p>` : "";
  return `<div class="measurement"><h3>${esc(m.title)}</h3>${m.rows.length > 0 ? `<table>${head}${rows}</table>` : ""}${note}</div>`;
}
