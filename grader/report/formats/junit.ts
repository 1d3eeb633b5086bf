// The grade as JUnit XML, which CI systems and many course tools display: one test suite per
// deliverable, one test case per check; a check that did not pass is a failure (an error when the
// grader could not run it), with its story and replay command.
import type { Report } from "../report.js";
import { checkText, selectedDeliverables, type ReportFormat } from "./format.js";

/** The report as JUnit XML, for the deliverables `only` names (all graded ones when none). */
export function junit(report: Report, only: string[] = []): string {
  const deliverables = selectedDeliverables(report, { env: {}, only }).filter((d) => d.status === "graded");
  const count = (status: string) => deliverables.flatMap((d) => d.checks).filter((c) => c.status === status).length;
  const all = deliverables.flatMap((d) => d.checks).length;
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="Checkpoint lab" tests="${all}" failures="${count("failed") + count("blocked")}" errors="${count("error")}">`];
  for (const d of deliverables) {
    const failures = d.checks.filter((c) => c.status === "failed" || c.status === "blocked").length;
    const errors = d.checks.filter((c) => c.status === "error").length;
    out.push(`  <testsuite name="${attr(d.id)}" tests="${d.checks.length}" failures="${failures}" errors="${errors}" skipped="0">`);
    out.push(`    <properties><property name="title" value="${attr(d.title)}"/><property name="kind" value="${d.kind}"/><property name="points" value="${d.points}"/><property name="maxPoints" value="${d.maxPoints}"/></properties>`);
    for (const c of d.checks) {
      const open = `    <testcase classname="${attr(d.id)}" name="${attr(`${c.id}: ${c.title}`)}" time="0">`;
      if (c.status === "passed") {
        out.push(`${open}</testcase>`);
        continue;
      }
      const tag = c.status === "error" ? "error" : "failure";
      const first = (c.message ?? "").split("\n")[0] ?? "";
      out.push(open, `      <${tag} message="${attr(`${c.points}/${c.maxPoints} points: ${first}`)}" type="${c.status}">${text(checkText(c))}</${tag}>`, "    </testcase>");
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return out.join("\n") + "\n";
}

/** XML text: escaped, and without the characters XML 1.0 cannot hold. */
function text(s: string): string {
  return s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attr(s: string): string {
  return text(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;");
}

export const junitFormat: ReportFormat = {
  flag: "--junit",
  describe: "the report as JUnit XML (one suite per deliverable, one case per check)",
  render: (report, ctx) => junit(report, ctx.only),
};
