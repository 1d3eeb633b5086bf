// What a grade has decided so far, as data: each deliverable's checks (waiting, running, decided),
// the crash states its running checks have checked, and the deliverables whose scoreboard row is
// known. A deliverable's row is known once all its checks and every check they require (which may
// be another deliverable's) are decided: its score is then what the final scoreboard will say.
// The lines drawn from it are progress-lines.ts's.
import type { CheckMeta } from "../../contract/verdict.js";
import { withRequirements, type Rubric } from "../../rubric.js";
import { buildReport } from "../report.js";
import type { CheckEvents } from "../reporter.js";
import { steadyNow } from "../../steady-clock.js";

/** A deliverable as the grade runs it: the ids of its checks this grade selected. */
export interface ProgressDeliverable {
  id: string;
  checks: string[];
}

/** A deliverable whose row is known. */
export interface DecidedRow {
  id: string;
  title: string;
  kind: "core" | "bonus";
  points: number;
  maxPoints: number;
  /** Its verdicts came from the verdict cache. */
  cached: boolean;
  /** When its row became known, in ms since the grade began. */
  atMs: number;
}

/** A deliverable with a check running, or waiting for one to start. */
export interface RunningDeliverable {
  id: string;
  /** Its checks decided so far, and how many it has. */
  decided: number;
  checks: number;
  started: boolean;
}

interface CheckState {
  deliverable: string;
  started: boolean;
  /** Crash states so far: the running check's last count, then the verdict's. */
  crashStates: number;
  meta?: CheckMeta;
}

export class GradeProgress implements CheckEvents {
  private readonly checks = new Map<string, CheckState>();
  private readonly rows: DecidedRow[] = [];
  /** Crash states of the verdicts from the cache: checked by an earlier grade, not this one. */
  private cachedIds = new Set<string>();

  constructor(
    private readonly rubric: Rubric,
    private readonly deliverables: ProgressDeliverable[],
    /** The grade's start, in ms since the epoch, and the clock (a test's own). */
    private readonly startedAt: number,
    private readonly now: () => number = steadyNow,
  ) {
    for (const d of deliverables) for (const id of d.checks) this.checks.set(id, { deliverable: d.id, started: false, crashStates: 0 });
  }

  /** A deliverable's verdicts came from the cache: its row is known at once. */
  fromCache(id: string, metas: CheckMeta[]): void {
    this.cachedIds.add(id);
    for (const meta of metas) this.record(meta);
    this.settle();
  }

  started(checkId: string): void {
    const check = this.checks.get(checkId);
    if (check) check.started = true;
  }

  crashStates(checkId: string, count: number): void {
    const check = this.checks.get(checkId);
    if (check && !check.meta && Number.isFinite(count)) check.crashStates = count;
  }

  decided(meta: CheckMeta): void {
    this.record(meta);
    this.settle();
  }

  /** The rows known so far, in the order they became known. */
  decidedRows(): readonly DecidedRow[] {
    return this.rows;
  }

  /** The deliverables whose rows are not known yet, in the rubric's order. */
  running(): RunningDeliverable[] {
    return this.deliverables
      .filter((d) => !this.rows.some((r) => r.id === d.id))
      .map((d) => {
        const states = d.checks.map((id) => this.checks.get(id)!);
        return { id: d.id, decided: states.filter((c) => c.meta).length, checks: states.length, started: states.some((c) => c.started || c.meta) };
      });
  }

  /** Crash states this grade has checked so far (the cache's aside), running checks' included. */
  crashStatesChecked(): number {
    let n = 0;
    for (const c of this.checks.values()) if (!this.cachedIds.has(c.deliverable)) n += c.crashStates;
    return n;
  }

  /** Ms since the grade began. */
  elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  /** Whether every deliverable's row is known. */
  complete(): boolean {
    return this.rows.length === this.deliverables.length;
  }

  private record(meta: CheckMeta): void {
    const check = this.checks.get(meta.id);
    if (!check) return;
    check.meta = meta;
    check.crashStates = meta.crashStates;
  }

  /** Adds the rows that became known, scored as the final report scores them. */
  private settle(): void {
    const known = (id: string) => this.checks.get(id)?.meta !== undefined || !this.checks.has(id);
    const ready = this.deliverables.filter((d) => {
      if (this.rows.some((r) => r.id === d.id)) return false;
      // A row is scored as the report scores it: once every check it requires, all the way down, is known.
      return withRequirements(this.rubric, d.checks).every(known);
    });
    if (ready.length === 0) return;
    const metas = [...this.checks.values()].flatMap((c) => (c.meta ? [c.meta] : []));
    const report = buildReport({ rubric: this.rubric, target: "", seed: 0, gradedWith: { node: process.version }, metas, selected: () => false, durationMs: 0 });
    for (const d of ready) {
      const row = report.deliverables.find((r) => r.id === d.id);
      if (!row) continue;
      this.rows.push({ id: d.id, title: row.title, kind: row.kind, points: row.points, maxPoints: row.maxPoints, cached: this.cachedIds.has(d.id), atMs: this.elapsedMs() });
    }
  }
}
