// Gradescope's results.json (its "Autograder Specifications"): one visible test per check with
// the check's points, its status and, for a lost point, the story and the replay command.
//
// The top-level `score` is the core score, as `npm run grade` reports it; Gradescope then shows it
// instead of the sum of the tests. Bonus checks are listed as tests too, named "(bonus)" and with
// their own points, so students see them, but they are not in `score`. Gradescope accepts
// fractions, so points are written as the rubric has them. A failed test with a picture is in
// Gradescope's "html" output format: the picture inline, then the story (gradescope-html.ts).
import type { Report } from "../report.js";
import { checkText, selectedDeliverables, type ReportFormat } from "./format.js";
import { gradescopeHtmlOutput } from "./gradescope-html.js";

export interface GradescopeResults {
  score: number;
  execution_time: number;
  output: string;
  stdout_visibility: "visible" | "hidden";
  tests: { name: string; score: number; max_score: number; status: "passed" | "failed"; output: string; output_format?: "html"; visibility: "visible" }[];
}

/** The results.json of the report, for the deliverables `only` names (all when none). */
export function gradescopeResults(report: Report, only: string[] = []): GradescopeResults {
  const deliverables = selectedDeliverables(report, { env: {}, only }).filter((d) => d.status === "graded");
  const tests = deliverables.flatMap((d) =>
    d.checks.map((c) => ({
      name: `${d.kind === "bonus" ? "(bonus) " : ""}${c.id}: ${c.title}`,
      score: c.points,
      max_score: c.maxPoints,
      status: c.status === "passed" ? ("passed" as const) : ("failed" as const),
      output: c.status === "passed" ? (c.message ? `Passed. ${c.message}` : "Passed.") : c.picture ? gradescopeHtmlOutput(c) : checkText(c),
      // A failure with a picture is HTML, so the picture shows on the test; any other output is plain text.
      ...(c.status !== "passed" && c.picture ? { output_format: "html" as const } : {}),
      visibility: "visible" as const,
    })),
  );
  const sum = (kind: string, f: (d: Report["deliverables"][number]) => number) => deliverables.filter((d) => d.kind === kind).reduce((n, d) => n + f(d), 0);
  const [score, maxScore, bonus, maxBonus] = [sum("core", (d) => d.points), sum("core", (d) => d.maxPoints), sum("bonus", (d) => d.points), sum("bonus", (d) => d.maxPoints)];
  const lost = tests.filter((t) => t.status === "failed").length;
  const ungraded = deliverables.flatMap((d) => d.checks).filter((c) => c.status === "error").length;
  const summary = [
    `Checkpoint lab: ${score}/${maxScore}${maxBonus > 0 ? `, and ${bonus}/${maxBonus} bonus points (shown below, not in the score)` : ""}.`,
    lost > 0 ? `${lost} check${lost === 1 ? "" : "s"} did not pass: each says what happened and how to replay it with npm run grade.` : "Every check passed.",
    ungraded > 0 ? `${ungraded} of them could not be graded at all: the test says why.` : "",
    `Seed ${report.seed}.`,
  ];
  return { score, execution_time: Math.round(report.stats.durationMs / 1000), output: summary.filter(Boolean).join("\n"), stdout_visibility: "visible", tests };
}

export const gradescopeFormat: ReportFormat = {
  flag: "--gradescope",
  describe: "Gradescope's results.json (core score on top, one test per check, bonus tests beside it)",
  render: (report, ctx) => JSON.stringify(gradescopeResults(report, ctx.only), null, 2) + "\n",
};
