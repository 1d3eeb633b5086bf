// Every check across a class: how many students were graded on it and passed, and the failures
// of those who did not, grouped by kind (failure-kind.ts), so that one bug shared by 31 students
// reads once, with their names and one story for all of them.
import type { CheckReport, Report } from "../../../report/report.js";
import type { Row } from "../gradebook.js";
import { failureKind, type FailureKind } from "./failure-kind.js";

/** A student, and the path of their report relative to the gradebook (absent when there is none). */
export interface Student {
  submission: string;
  reportPath?: string;
}

/** Students who lost a check the same way. */
export interface FailureGroup {
  kind: FailureKind;
  status: Exclude<CheckReport["status"], "passed">;
  /** In the gradebook's order. */
  students: Student[];
  /** The shortest story among them (the first student's, of stories as short): what the group shows for all. */
  example: { submission: string; check: CheckReport };
}

/** A check across the class. */
export interface CheckAcross {
  id: string;
  title: string;
  /** The deliverable it belongs to. */
  deliverable: string;
  maxPoints: number;
  /** Students graded on it (their report has it), and of them those who passed. */
  graded: number;
  passed: number;
  /** Those who did not pass, by status. */
  failed: number;
  blocked: number;
  error: number;
  /** Their failures by kind, the largest group first. */
  groups: FailureGroup[];
}

/**
 * Each check any of `rows`' reports graded, in the order the reports list them, sorted by how many
 * students lost it (most first; ties keep that order). Rows without a report count nowhere.
 */
export function checksAcross(rows: Pick<Row, "submission" | "report" | "reportPath">[]): CheckAcross[] {
  const checks = new Map<string, CheckAcross>();
  const groups = new Map<string, Map<string, FailureGroup>>();
  for (const row of rows) {
    if (!row.report) continue;
    for (const d of row.report.deliverables)
      for (const c of d.checks) {
        const across = checks.get(c.id) ?? { id: c.id, title: c.title, deliverable: d.id, maxPoints: c.maxPoints, graded: 0, passed: 0, failed: 0, blocked: 0, error: 0, groups: [] };
        checks.set(c.id, across);
        across.graded++;
        across.maxPoints = Math.max(across.maxPoints, c.maxPoints);
        if (c.status === "passed") {
          across.passed++;
          continue;
        }
        across[c.status]++;
        const byKey = groups.get(c.id) ?? new Map<string, FailureGroup>();
        groups.set(c.id, byKey);
        const kind = failureKind(c);
        const student = { submission: row.submission, ...(row.reportPath ? { reportPath: row.reportPath } : {}) };
        const group = byKey.get(kind.key);
        if (!group) byKey.set(kind.key, { kind, status: c.status, students: [student], example: { submission: row.submission, check: c } });
        else {
          group.students.push(student);
          if (storyLength(c) < storyLength(group.example.check)) group.example = { submission: row.submission, check: c };
        }
      }
  }
  const lost = (c: CheckAcross) => c.graded - c.passed;
  return [...checks.values()]
    .map((c) => ({ ...c, groups: [...(groups.get(c.id)?.values() ?? [])].sort((a, b) => b.students.length - a.students.length) }))
    .sort((a, b) => lost(b) - lost(a));
}

function storyLength(c: CheckReport): number {
  return (c.message ?? "").length;
}

/** The reports of `rows` that count in the class's numbers: those of graded rows (an error row's report is not its grade). */
export function gradedReports(rows: Row[]): Array<Row & { report: Report }> {
  return rows.filter((r): r is Row & { report: Report } => !r.error && r.report !== null);
}
