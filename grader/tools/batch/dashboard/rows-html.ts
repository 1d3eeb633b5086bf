// The dashboard's lists of students: a name linking to its report, the clones whose grader files
// differ from the template, the rows the batch could not grade, with why, and the submissions the
// roster map does not name.
import { esc } from "../../../report/html/escape.js";
import type { ClassSummary } from "./class-summary.js";
import type { Student } from "./failure-groups.js";

/** A student's name, linking to their JSON report (a path relative to the page) when there is one. */
export function studentLink(s: Student): string {
  return s.reportPath ? `<a href="${esc(s.reportPath)}" data-submission="${esc(s.submission)}">${esc(s.submission)}</a>` : `<span data-submission="${esc(s.submission)}">${esc(s.submission)}</span>`;
}

/** "1 student", "31 students". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** The clones whose grader files differ from the template: who, and which files. */
export function modifiedSection(summary: ClassSummary): string {
  const body =
    summary.modified.length === 0
      ? '<p class="note">No repository changed a grader file.</p>'
      : `<p class="note">Each was graded with the pristine grader all the same: its score is not affected.</p>
<table class="rows" data-table="modified"><thead><tr><th scope="col">submission</th><th scope="col">files that differ from the template</th></tr></thead><tbody>${summary.modified
          .map((m) => `<tr data-row="${esc(m.submission)}"><td>${studentLink(m)}</td><td>${m.files.map((f) => `<code>${esc(f)}</code>`).join(", ")}</td></tr>`)
          .join("")}</tbody></table>`;
  return `<section id="modified" aria-labelledby="modified-title"><h2 id="modified-title">Grader files modified (${summary.modified.length})</h2>${body}</section>`;
}

/** The error rows: who, why, and their report when the grade wrote one. */
export function errorsSection(summary: ClassSummary): string {
  const body =
    summary.errorRows.length === 0
      ? '<p class="note">Every submission was graded.</p>'
      : `<p class="note">These rows have no grade; they count in none of the numbers above.</p>
<table class="rows" data-table="errors"><thead><tr><th scope="col">submission</th><th scope="col">why it was not graded</th></tr></thead><tbody>${summary.errorRows
          .map((e) => `<tr data-row="${esc(e.submission)}"><td>${studentLink(e)}</td><td>${esc(e.error)}</td></tr>`)
          .join("")}</tbody></table>`;
  return `<section id="errors" aria-labelledby="errors-title"><h2 id="errors-title">Errors (${summary.errorRows.length})</h2>${body}</section>`;
}

/** The submissions the roster map gives no student id (only when a roster map was given). */
export function notInMapSection(summary: ClassSummary): string {
  if (!summary.rosterMap) return "";
  const { file, notInMap } = summary.rosterMap;
  const body =
    notInMap.length === 0
      ? `<p class="note">Every submission has a student id from <code>${esc(file)}</code>.</p>`
      : `<p class="note"><code>${esc(file)}</code> names none of these: their <code>student id</code> is empty, so a course gradebook's import leaves them out. Add them to the roster map and write the gradebook again.</p>
<table class="rows" data-table="not-in-map"><thead><tr><th scope="col">submission</th></tr></thead><tbody>${notInMap.map((s) => `<tr data-row="${esc(s.submission)}"><td>${studentLink(s)}</td></tr>`).join("")}</tbody></table>`;
  return `<section id="not-in-map" aria-labelledby="not-in-map-title"><h2 id="not-in-map-title">Not in the roster map (${notInMap.length})</h2>${body}</section>`;
}
