// The lines of a grade's live progress, drawn from its model (progress.ts): on a terminal, the
// scoreboard's header, a row per deliverable whose score is known and a last line for what is
// still running; not on a terminal, one plain line per deliverable as its score becomes known.
// Every line fits `width` columns, cut with "…" (a line that wrapped would break the redrawing).
import pc from "picocolors";
import stringWidth from "string-width";
import { cut } from "../cut-to-width.js";
import { SCORE_COLUMNS } from "../layout.js";
import { crashStates } from "../words.js";
import type { DecidedRow, GradeProgress } from "./progress.js";

type Colors = ReturnType<typeof pc.createColors>;

/** What a terminal shows while the grade runs: the header, the rows known, and the live line (none once every row is known). */
export function liveLines(progress: GradeProgress, opts: { header: string; width: number; color: boolean }): string[] {
  const c = pc.createColors(opts.color);
  const rows = progress.decidedRows().map((r) => rowLine(c, r, opts.width));
  const live = progress.complete() ? [] : ["", cut(runningLine(progress), opts.width)];
  return [c.bold(cut(opts.header, opts.width)), "", ...rows, ...live];
}

/**
 * A known row as the scoreboard draws it (layout.ts's titleRow): the title, the score in the
 * score column. A title too long for its line is cut here, not wrapped: the scoreboard that
 * follows shows it whole.
 */
function rowLine(c: Colors, row: DecidedRow, width: number): string {
  const room = Math.max(10, Math.min(66, width - SCORE_COLUMNS - 1));
  const title = cut(row.title, room);
  const color = row.points === row.maxPoints ? c.green : row.points === 0 ? c.red : c.yellow;
  const score = `${color(`${row.points}/${row.maxPoints}`)}${row.kind === "bonus" ? c.dim(" (bonus)") : ""}`;
  return cut(`${c.bold(title)}${" ".repeat(Math.max(1, room - stringWidth(title) + 1))}${score}`, width);
}

/**
 * What is still running, the changing numbers first (a cut takes the end): "12 s · 1,204 crash
 * states · phase1 check 5 of 6, phase3 check 2 of 4 · 2 to start".
 */
export function runningLine(progress: GradeProgress): string {
  const running = progress.running();
  const started = running.filter((d) => d.started).map((d) => `${d.id} check ${Math.min(d.checks, d.decided + 1)} of ${d.checks}`);
  const toStart = running.filter((d) => !d.started).length;
  const parts = [`${Math.floor(progress.elapsedMs() / 1000)}\u00a0s`, crashStates(progress.crashStatesChecked()), ...(started.length > 0 ? [started.join(", ")] : []), ...(toStart > 0 ? [`${toStart} to start`] : [])];
  return parts.join(" · ");
}

/** A row known, on one plain line for a log: "Phase 1: atomic checkpoint · 35/35 · at 8.3 s". */
export function plainLine(row: DecidedRow): string {
  const score = `${row.points}/${row.maxPoints}${row.kind === "bonus" ? " (bonus)" : ""}`;
  // The time since the grade began, not the deliverable's own: deliverables overlap.
  const when = row.cached ? "from the cache" : `at ${(row.atMs / 1000).toFixed(1)}\u00a0s`;
  // Whole: a pipe or a log has no width to cut a title to.
  return `${row.title} · ${score} · ${when}`;
}
