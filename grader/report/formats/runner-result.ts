// The result of one runner for GitHub's Classroom-style autograding reporter
// (classroom-resources/autograding-grading-reporter): it reads base64 of this JSON from
// `<RUNNER ID>_RESULTS`, sums `tests[].score` against `max_score`, and fails its step when a
// runner's status is "fail" or "error". One test per check, with the check's points as its score
// (partial credit per check); bonus deliverables are left out unless --only names them.
import type { Report } from "../report.js";
import { checkText, selectedDeliverables, type ReportFormat } from "./format.js";

export interface RunnerResult {
  version: 1;
  status: "pass" | "fail" | "error";
  max_score: number;
  tests: { name: string; status: "pass" | "fail" | "error"; score: number; message: string; line_no: number; execution_time: string }[];
}

/** The runner result of the report's core deliverables, or of those `only` names. */
export function runnerResult(report: Report, only: string[] = []): RunnerResult {
  const deliverables = selectedDeliverables(report, { env: {}, only }).filter((d) => only.length > 0 || d.kind === "core");
  const checks = deliverables.flatMap((d) => d.checks);
  const tests = checks.map((c) => ({
    name: `${c.id}: ${c.title}`,
    status: c.status === "passed" ? ("pass" as const) : c.status === "error" ? ("error" as const) : ("fail" as const),
    score: c.points,
    message: checkText(c),
    line_no: 0,
    execution_time: "0s",
  }));
  const status = tests.some((t) => t.status === "error") ? "error" : tests.every((t) => t.status === "pass") ? "pass" : "fail";
  return { version: 1, status, max_score: deliverables.reduce((n, d) => n + d.maxPoints, 0), tests };
}

export const runnerResultFormat: ReportFormat = {
  flag: "--runner-result",
  describe: "the autograding reporter's runner result (core deliverables, or those --only names)",
  render: (report, ctx) => JSON.stringify(runnerResult(report, ctx.only)) + "\n",
};
