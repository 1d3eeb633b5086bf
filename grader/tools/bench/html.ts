// What the HTML report costs: the time to render a grade's report as its page (the grade writes
// it on every run), beside the grade's own time, and the page's size.
import { renderHtmlReport } from "../../report/html/render.js";
import type { Report } from "../../report/report.js";

/** Medians over `runs` renders of `report`'s page, in ms, and the page's size in bytes. */
export function htmlCost(report: Report, runs: number): { ms: number[]; bytes: number } {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    bytes = Buffer.byteLength(renderHtmlReport(report));
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ms, bytes };
}
