// The grade as one self-contained HTML page (grader/report/html/): the scoreboard, and each lost
// point's story, picture and replay command with a Copy button. `npm run grade` also writes it
// to .grade/report.html on every grade.
import { renderHtmlReport } from "../html/render.js";
import { selectedDeliverables, type ReportFormat } from "./format.js";

/** `--html <file>`: the report as the page .grade/report.html is, for the deliverables --only names (all when none). */
export const htmlFormat: ReportFormat = {
  flag: "--html",
  describe: "the report as one HTML page that opens from disk (stories, pictures, replay commands)",
  render: (report, ctx) => renderHtmlReport(ctx.only.length === 0 ? report : { ...report, deliverables: selectedDeliverables(report, ctx) }),
};
