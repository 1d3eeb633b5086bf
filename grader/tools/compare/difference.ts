// Whether two graders gave one report: the report as text both must agree on, and where two such
// texts first differ (compare-reports prints it; the side-by-side bench compares digests of it).
import type { Report } from "../../report/report.js";
import { comparable } from "../../test/support/grade.js";

/** The report as both graders must agree on it: durations, measured times and what graded it aside; one key a line. */
export function comparableText(report: Report): string {
  return `${JSON.stringify(comparable(report), null, 1)}\n`;
}

/** Where two texts first differ: the line's number and up to `context` lines of each from there; null when they are the same. */
export function firstDifference(earlier: string, now: string, context = 3): { line: number; earlier: string[]; now: string[] } | null {
  if (earlier === now) return null;
  const a = earlier.split("\n");
  const b = now.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return { line: i + 1, earlier: a.slice(i, i + context), now: b.slice(i, i + context) };
}
