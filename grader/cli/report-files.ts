// Where a grade leaves its report in .grade/. The last full grade's stays at .grade/report.json
// and .grade/report.html until the next full grade: a partial grade (--only) writes its own
// beside it, in .grade/partial/, so that running a printed command never takes away the full
// grade's stories and pictures; a replay (--replay) writes none, since it grades nothing.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import type { FullGradePage } from "../report/html/render.js";

/** Where the last full grade's report is written, besides any --json file. */
export const LAST_REPORT = path.join(REPO_ROOT, ".grade", "report.json");

/** The last full grade's report as a page to open in a browser, beside LAST_REPORT. */
export const LAST_HTML = path.join(REPO_ROOT, ".grade", "report.html");

/** Where the last partial grade's (--only) report is written, never over the full grade's. */
export const PARTIAL_REPORT = path.join(REPO_ROOT, ".grade", "partial", "report.json");
export const PARTIAL_HTML = path.join(REPO_ROOT, ".grade", "partial", "report.html");

/** The files in .grade/ that a grade with these options writes: none for a replay. */
export function reportFiles(opts: { only: string[]; replay?: string }): { json: string; html: string } | null {
  if (opts.replay !== undefined) return null;
  return opts.only.length > 0 ? { json: PARTIAL_REPORT, html: PARTIAL_HTML } : { json: LAST_REPORT, html: LAST_HTML };
}

/** The last full grade's page, as a partial grade's page names it: in the repository, from the partial page (a link), when it was written, and the target it graded; null when there is none. */
export function lastFullGrade(): FullGradePage | null {
  try {
    const writtenAt = fs.statSync(LAST_HTML).mtime;
    let target: string | undefined;
    try {
      target = (JSON.parse(fs.readFileSync(LAST_REPORT, "utf8")) as { target?: unknown }).target as string | undefined;
    } catch {
      // A page without its report beside it: named without its target.
    }
    return { file: path.relative(REPO_ROOT, LAST_HTML), href: path.relative(path.dirname(PARTIAL_HTML), LAST_HTML), writtenAt, ...(typeof target === "string" ? { target } : {}) };
  } catch {
    return null;
  }
}
