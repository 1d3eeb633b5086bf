// The grade report: per deliverable and per check, points and the story of each lost point.
// Its JSON form is what the outside world reads; bump SCHEMA_VERSION on any change of shape.
import { deliverablePoints, requirementsByCheck, type Rubric } from "../rubric.js";
import { sameError, type Cause, type CheckMeta, type Verdict } from "../contract/verdict.js";
import type { GradedWith } from "./graded-with.js";
import type { MeasurementMeta, MeasurementReport } from "../contract/measurement.js";
import { notStartedDeliverables, type NotStarted } from "./not-started.js";
import type { Picture } from "../contract/picture.js";

export const SCHEMA_VERSION = 6;

export type CheckReportStatus = "passed" | "failed" | "blocked" | "error";

export interface CheckReport {
  id: string;
  title: string;
  status: CheckReportStatus;
  points: number;
  maxPoints: number;
  message?: string;
  replay?: string;
  crashStates: number;
  /** What the failure looked like, drawn above its story (schema 4): for the failures whose check draws one. */
  picture?: Picture;
  /** Wall time of the check in ms (schema 3): 0 for one not run; varies from grade to grade. */
  durationMs?: number;
  /** For a blocked check: the checks to fix first (each it requires that did not pass, or what one that passed waits on). */
  waitsOn?: string[];
  /** For a blocked check: it also failed on its own, with a cause other than theirs (its message tells both). */
  alsoFails?: boolean;
  /** What the failure its message tells came down to (schema 6): on a failed check, a blocked one that also fails, and one the grader could not run. */
  cause?: Cause;
}

export interface DeliverableReport {
  id: string;
  title: string;
  kind: "core" | "bonus";
  /** "not-graded" while the grader has no checks for it yet. */
  status: "graded" | "not-graded";
  points: number;
  maxPoints: number;
  checks: CheckReport[];
  /** Crash states its checks checked, and its wall time in ms from compiling its files to its last check's end (schema 3). */
  crashStates?: number;
  durationMs?: number;
  /** Its verdicts came from the verdict cache: nothing they depend on changed since it was graded on this machine (schema 3). */
  cached?: boolean;
  /** With `cached`: what it measures was not found there and was measured again in this grade (schema 3). */
  remeasured?: boolean;
  /** When fewer than all its checks were graded (`--only`): the points all of them are worth (schema 3). */
  partial?: { maxPoints: number };
  /** Not started (schema 3): every check failed, or waits on one that failed, because these functions still throw the starter's error. */
  notStarted?: NotStarted;
  /** What the deliverable measured without scoring it (schema 2), when it measured anything. */
  measurements?: MeasurementReport[];
}

export interface Report {
  schemaVersion: number;
  target: string;
  seed: number;
  /** The Node version and grader commit of the grade (schema 5); a report standing for a grade that wrote none has none. */
  gradedWith?: GradedWith;
  score: number;
  maxScore: number;
  bonus: number;
  maxBonus: number;
  deliverables: DeliverableReport[];
  stats: { crashStates: number; durationMs: number };
  /** A grade of some checks only (`--only`, as given; schema 3): the lab's whole core and bonus points, of which these are a part. */
  partial?: { only: string[]; maxScore: number; maxBonus: number; replay?: string };
  /** Who the submitted code ran as: a user of its own (the grade ran as root), or the grader's own user, and why; and whether it had the network. */
  targetUser?: TargetUserReport;
}

export interface TargetUserReport {
  separate: boolean;
  /** The grade ran as root: submitted code runs as a user of its own unless `why` says what prevented it. */
  root: boolean;
  why?: string;
  /** It could use the network (schema 5): false only for a user of its own in a network namespace of its own. */
  network: boolean;
  /** Why a user of its own still had the network (no namespace could be made). */
  networkWhy?: string;
}

/** Builds the report from the rubric and the checks' verdicts, applying each check's `requires`; `targetDir`, the graded folder, tells which starter functions it has not started. */
export function buildReport(opts: { rubric: Rubric; target: string; seed: number; gradedWith: GradedWith; metas: CheckMeta[]; measurements?: MeasurementMeta[]; selected: (id: string) => boolean; durationMs: number; only?: string[]; replay?: string; targetDir?: string }): Report {
  const byId = new Map(opts.metas.map((m) => [m.id, m]));
  const waitsOn = requirementsNotMet(opts.rubric, byId);
  const deliverables: DeliverableReport[] = [];
  for (const d of opts.rubric.deliverables) {
    if (!d.enabled) continue;
    if (d.checks.length === 0) {
      if (opts.selected(d.id)) deliverables.push({ id: d.id, title: d.title, kind: d.kind, status: "not-graded", points: 0, maxPoints: d.points ?? 0, checks: [] });
      continue;
    }
    const checks: CheckReport[] = [];
    for (const c of d.checks) {
      const meta = byId.get(c.id);
      if (!meta) continue;
      const unmet = waitsOn(c.id);
      let status: CheckReportStatus = meta.status;
      let message = meta.message;
      // A failure's picture goes with its story: not on a blocked check whose own story is not told.
      let drawn = meta.status === "failed" && meta.picture ? meta.picture : undefined;
      let replay = meta.status === "failed" ? meta.replay : undefined;
      let waiting: Pick<CheckReport, "waitsOn" | "alsoFails"> = {};
      if (unmet.length > 0 && status !== "error") {
        // A safety check is not scored until the check it builds on passes: writing nothing is never "crash-safe".
        // Its own failure is told only when it is not the requirement's told again.
        const alsoFails = status === "failed" && !!meta.message && !unmet.some((r) => sameCause(meta, byId.get(r)));
        message = `Scored only once ${waitWords(unmet)}${alsoFails ? `\nIt also fails on its own:\n${meta.message}` : ""}`;
        // A check that only waits has nothing of its own to replay until the other passes.
        if (!alsoFails) {
          drawn = undefined;
          replay = undefined;
        }
        status = "blocked";
        waiting = { waitsOn: unmet, ...(alsoFails ? { alsoFails } : {}) };
      }
      const points = status === "passed" ? c.points : 0;
      // The cause goes with the failure (or error) the message tells: none for a check that only waits.
      const cause = meta.cause && (status !== "blocked" || waiting.alsoFails) ? { cause: meta.cause } : {};
      checks.push({ id: c.id, title: c.title, status, points, maxPoints: c.points, message, replay, ...(drawn ? { picture: drawn } : {}), crashStates: meta.crashStates, durationMs: meta.durationMs, ...waiting, ...cause });
    }
    if (checks.length === 0) continue;
    const sum = (f: (c: CheckReport) => number) => checks.reduce((n, c) => n + f(c), 0);
    const measured = (opts.measurements ?? []).filter((m) => m.deliverable === d.id).map((m) => m.report);
    const spans = opts.metas.filter((m) => m.deliverable === d.id).map((m) => m.span);
    const durationMs = spans.length === 0 ? 0 : Math.max(...spans.map((s) => s[1])) - Math.min(...spans.map((s) => s[0]));
    const partial = checks.length < d.checks.length ? { partial: { maxPoints: deliverablePoints(d) } } : {};
    deliverables.push({ id: d.id, title: d.title, kind: d.kind, status: "graded", points: sum((c) => c.points), maxPoints: sum((c) => c.maxPoints), checks, crashStates: sum((c) => c.crashStates), durationMs, ...partial, ...(measured.length > 0 ? { measurements: measured } : {}) });
  }
  for (const [id, why] of notStartedDeliverables(deliverables, opts.rubric, undefined, { targetDir: opts.targetDir })) deliverables.find((d) => d.id === id)!.notStarted = why;
  const graded = deliverables.filter((d) => d.status === "graded");
  const total = (kind: string, f: (d: DeliverableReport) => number) => graded.filter((d) => d.kind === kind).reduce((n, d) => n + f(d), 0);
  // The lab's whole points of a kind: every enabled deliverable with checks, every check.
  const whole = (kind: string) => opts.rubric.deliverables.filter((d) => d.enabled && d.kind === kind).reduce((n, d) => n + d.checks.reduce((m, c) => m + c.points, 0), 0);
  return {
    schemaVersion: SCHEMA_VERSION,
    target: opts.target,
    seed: opts.seed,
    gradedWith: opts.gradedWith,
    score: total("core", (d) => d.points),
    maxScore: total("core", (d) => d.maxPoints),
    bonus: total("bonus", (d) => d.points),
    maxBonus: total("bonus", (d) => d.maxPoints),
    deliverables,
    stats: { crashStates: opts.metas.reduce((n, m) => n + m.crashStates, 0), durationMs: opts.durationMs },
    ...(opts.only?.length ? { partial: { only: opts.only, maxScore: whole("core"), maxBonus: whole("bonus"), ...(opts.replay ? { replay: opts.replay } : {}) } } : {}),
  };
}

/**
 * What each check waits on before it can be scored: a requirement that did not pass, or, where a
 * requirement passed on its own but waits itself, what that one waits on (the check to fix
 * first). A check is scored only when everything it requires is, all the way down: a crash check
 * built on a `crash-safety` that waits on a failed `round-trip` waits on `round-trip` too.
 */
function requirementsNotMet(rubric: Rubric, byId: Map<string, Pick<CheckMeta, "status">>): (id: string) => string[] {
  const requires = requirementsByCheck(rubric);
  const waits = new Map<string, string[]>();
  const waitsOn = (id: string, path: string[] = []): string[] => {
    const known = waits.get(id);
    if (known) return known;
    const found = new Set<string>();
    for (const r of requires.get(id) ?? []) {
      if (byId.get(r)?.status !== "passed") found.add(r);
      // The manifest refuses a circle of requirements (rubric.ts); one built here stops rather than loops.
      else if (!path.includes(r)) waitsOn(r, [...path, id]).forEach((w) => found.add(w));
    }
    waits.set(id, [...found]);
    return [...found];
  };
  return (id) => waitsOn(id);
}

/** "phase1.crash-safety passes; fix that first.": what a blocked check waits on, after "Scored only once". */
export function waitWords(unmet: string[]): string {
  return `${unmet.join(" and ")} ${unmet.length === 1 ? "passes; fix that" : "pass; fix those"} first.`;
}

/**
 * Whether a blocked check's own failure has the cause of its requirement's failure: neither file
 * could be compiled, its own failure is in the run with no crash that the requirement judges, the
 * two tell one error of the target's (the same thrown or printed on exit), or they went wrong the
 * same way (one outcome: "firstDivergence returned an earlier step" in both).
 */
export function sameCause(own: Pick<Verdict, "cause">, required: Pick<Verdict, "status" | "cause"> | undefined): boolean {
  if (required?.status !== "failed" || !own.cause) return false;
  if (own.cause.crashFreeRun) return true;
  if (own.cause.wholeFile && required.cause?.wholeFile) return true;
  if (own.cause.outcome !== undefined && own.cause.outcome === required.cause?.outcome) return true;
  return (own.cause.errors ?? []).some((e) => (required.cause?.errors ?? []).some((r) => sameError(e, r)));
}

/** Whether a failure of a deliverable that was started has a picture: then the HTML page has a crash to see that the terminal only sketches. */
export function hasPicture(report: Pick<Report, "deliverables">): boolean {
  return report.deliverables.some((d) => !d.notStarted && d.checks.some((c) => c.picture !== undefined));
}

/** The exit code of a grade: 0 when every selected core check passed (and every bonus check `only` names), 1 when some failed, 2 when the grader could not run one. */
export function exitCode(report: Report, only: string[] = []): number {
  const named = (d: DeliverableReport, c: CheckReport) => only.includes(d.id) || only.includes(c.id);
  const checks = report.deliverables.flatMap((d) => d.checks.map((c) => ({ ...c, counts: d.kind === "core" || named(d, c) })));
  if (checks.some((c) => c.status === "error")) return 2;
  return checks.some((c) => c.counts && c.status !== "passed") ? 1 : 0;
}
