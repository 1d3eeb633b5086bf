// Classroom 50's result.json (schema "classroom50/result/v1"), which its runner reads after the
// classroom's autograder.py: who and what was graded (from the runner's environment), integer
// `score` and `max-score`, and one test per check with integer points.
//
// `score` and `max-score` are the core score, the grade Classroom 50 collects, as `npm run grade`
// reports it (of the deliverables --only names, when it names any). Bonus checks are listed as tests too, named "(bonus)", with their own points: so the
// tests' points add up to more than `score` when a bonus was earned, which the contract allows.
// Fractional rubric weights are rounded per check (see whole-points.ts).
import type { Report } from "../report.js";
import { selectedDeliverables, type FormatContext, type ReportFormat } from "./format.js";
import { wholePoints } from "./whole-points.js";

/** The runner's variables the file cannot do without (OWNER may be USERNAME instead; REVIEW_URL falls back to COMMIT_URL). */
export const REQUIRED_ENV = ["CLASSROOM", "ASSIGNMENT", "SUBMISSION_TAG", "COMMIT_URL", "RELEASE_URL"];

export interface Classroom50Result {
  schema: "classroom50/result/v1";
  classroom: string;
  assignment: string;
  assignment_type: string;
  owner: string;
  submission: string;
  commit: string;
  release: string;
  review: string;
  datetime: string;
  score: number;
  "max-score": number;
  tests: { "test-name": string; passed: boolean; score: number; "max-score": number }[];
}

/** The result.json of the report for the run `ctx.env` describes; throws an Error naming a missing variable. */
export function classroom50Result(report: Report, ctx: FormatContext, now = new Date()): Classroom50Result {
  const value = (name: string) => ctx.env[name]?.trim() ?? "";
  const missing = REQUIRED_ENV.filter((name) => !value(name));
  if (!value("OWNER") && !value("USERNAME")) missing.push("OWNER");
  if (missing.length > 0) throw new Error(`Classroom 50's result.json needs the environment variable${missing.length > 1 ? "s" : ""} ${missing.join(", ")}, which its runner sets`);
  const submission = value("SUBMISSION_TAG");
  if (!submission.startsWith("submit/")) throw new Error(`SUBMISSION_TAG must start with "submit/" (Classroom 50's submission tags do), got ${JSON.stringify(submission)}`);
  const deliverables = selectedDeliverables(report, ctx).filter((d) => d.status === "graded");
  const tests: Classroom50Result["tests"] = [];
  const core = { score: 0, max: 0 };
  for (const kind of ["core", "bonus"] as const) {
    const checks = deliverables.filter((d) => d.kind === kind).flatMap((d) => d.checks);
    for (const { check, score, maxScore } of wholePoints(checks)) {
      if (kind === "core") (core.score += score), (core.max += maxScore);
      tests.push({ "test-name": `${kind === "bonus" ? "(bonus) " : ""}${check.id}: ${check.title}`, passed: check.status === "passed", score, "max-score": maxScore });
    }
  }
  const commit = value("COMMIT_URL");
  return {
    schema: "classroom50/result/v1",
    classroom: value("CLASSROOM"),
    assignment: value("ASSIGNMENT"),
    // The runner stamps these two itself; they are here so the file is complete on its own.
    assignment_type: value("ASSIGNMENT_TYPE") || "individual",
    owner: value("OWNER") || value("USERNAME"),
    submission,
    commit,
    release: value("RELEASE_URL"),
    // Older runners set no REVIEW_URL; Classroom 50 then links the commit itself.
    review: value("REVIEW_URL") || commit,
    // The runner replaces this with the graded commit's time; until then, the time of grading.
    datetime: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
    score: core.score,
    "max-score": core.max,
    tests,
  };
}

export const classroom50Format: ReportFormat = {
  flag: "--classroom50",
  describe: "Classroom 50's result.json (needs its runner's CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, ... variables)",
  render: (report, ctx) => JSON.stringify(classroom50Result(report, ctx), null, 2) + "\n",
};
