// The class dashboard's numbers, from a gradebook's rows: how many students, graded and errors,
// the score distributions (core total, bonus, each deliverable), each check's pass rate and its
// failures by kind, the clones whose grader files changed, the error rows. Only graded rows count
// in the distributions and pass rates: an error row's report, when it has one, is not a grade.
import { deliverablePoints, type Rubric } from "../../../rubric.js";
import type { Row } from "../gradebook.js";
import { checksAcross, gradedReports, type CheckAcross, type Student } from "./failure-groups.js";
import { histogram, type Histogram } from "./histogram.js";

/** One score distribution: the core total, the bonus, or one deliverable's points. */
export interface Distribution {
  /** "core", "bonus", or a deliverable's id. */
  id: string;
  title: string;
  kind: "core" | "bonus";
  /** Whether it is a total (core or bonus) rather than one deliverable. */
  total: boolean;
  histogram: Histogram;
}

/** Everything the dashboard shows, as numbers and names. */
export interface ClassSummary {
  students: number;
  graded: number;
  errors: number;
  /** When the gradebook was written, ISO 8601. */
  gradedAt: string;
  /** The rubric's whole core and bonus points (its enabled deliverables). */
  rubricMax: { core: number; bonus: number };
  /** The `--only` ids when the reports are partial grades. */
  only?: string[];
  /** The seeds the reports were graded with (one, in a batch). */
  seeds: number[];
  distributions: Distribution[];
  /** Each check graded, the most often lost first. */
  checks: CheckAcross[];
  modified: Array<Student & { files: string[] }>;
  errorRows: Array<Student & { error: string }>;
  /** When a roster map gave the students' ids: its file's name, and the submissions it does not name. */
  rosterMap?: { file: string; notInMap: Student[] };
}

/** The dashboard's numbers for `rows`, graded with `rubric`, written at `gradedAt`; `rosterMap` names the roster map that gave the rows their student ids, when one did. */
export function classSummary(rubric: Rubric, rows: Row[], gradedAt: Date, rosterMap?: string): ClassSummary {
  const graded = gradedReports(rows);
  const enabled = rubric.deliverables.filter((d) => d.enabled);
  const whole = (kind: "core" | "bonus") => enabled.filter((d) => d.kind === kind).reduce((n, d) => n + deliverablePoints(d), 0);
  const student = (r: Row): Student => ({ submission: r.submission, ...(r.reportPath ? { reportPath: r.reportPath } : {}) });
  return {
    students: rows.length,
    graded: graded.length,
    errors: rows.filter((r) => r.error).length,
    gradedAt: gradedAt.toISOString(),
    rubricMax: { core: whole("core"), bonus: whole("bonus") },
    ...(graded.some((r) => r.report.partial) ? { only: graded.find((r) => r.report.partial)!.report.partial!.only } : {}),
    seeds: [...new Set(graded.map((r) => r.report.seed))].sort((a, b) => a - b),
    distributions: distributions(rubric, graded),
    checks: checksAcross(graded),
    modified: rows.filter((r) => r.modified.length > 0).map((r) => ({ ...student(r), files: r.modified })),
    errorRows: rows.filter((r) => r.error).map((r) => ({ ...student(r), error: r.error! })),
    ...(rosterMap === undefined ? {} : { rosterMap: { file: rosterMap, notInMap: rows.filter((r) => r.studentId === undefined).map(student) } }),
  };
}

/**
 * The core total and the bonus total, then each enabled deliverable some report graded, in the
 * rubric's order; each out of the most any report was graded out of. A total counts the reports
 * graded on points of its kind, and is left out when one deliverable holds all of them (it would
 * draw that deliverable's histogram twice).
 */
function distributions(rubric: Rubric, graded: ReturnType<typeof gradedReports>): Distribution[] {
  const enabled = rubric.deliverables.filter((d) => d.enabled);
  const deliverables: Distribution[] = [];
  for (const d of enabled) {
    const reports = graded.map((r) => r.report.deliverables.find((x) => x.id === d.id && x.status === "graded")).filter((x) => x !== undefined);
    if (reports.length === 0) continue;
    deliverables.push({ id: d.id, title: d.title, kind: d.kind, total: false, histogram: histogram(reports.map((x) => x.points), Math.max(...reports.map((x) => x.maxPoints))) });
  }
  const totals: Distribution[] = [];
  for (const [kind, title] of [["core", "Core score"], ["bonus", "Bonus"]] as const) {
    const counted = graded.filter((r) => (kind === "core" ? r.report.maxScore : r.report.maxBonus) > 0);
    if (counted.length === 0 || deliverables.filter((d) => d.kind === kind).length < 2) continue;
    const scores = counted.map((r) => (kind === "core" ? r.report.score : r.report.bonus));
    const max = Math.max(...counted.map((r) => (kind === "core" ? r.report.maxScore : r.report.maxBonus)));
    totals.push({ id: kind, title, kind, total: true, histogram: histogram(scores, max) });
  }
  return [...totals, ...deliverables];
}
