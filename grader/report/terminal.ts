// The scoreboard printed by `npm run grade`: colours on a terminal, plain text when piped.
import pc from "picocolors";
import type { CheckReport, Report } from "./report.js";

const MARK = { passed: "✓", failed: "✗", blocked: "–", error: "!" } as const;

/** Renders the report as the student reads it. */
export function renderScoreboard(report: Report, opts: { color: boolean; seconds: number }): string {
  const c = pc.createColors(opts.color);
  const out: string[] = [c.bold(`Checkpoint lab: grading ${report.target} (seed ${report.seed})`), ""];
  for (const d of report.deliverables) {
    const score = d.status === "not-graded" ? c.dim("not graded yet") : scoreColor(c, d.points, d.maxPoints)(`${d.points}/${d.maxPoints}`);
    out.push(`${c.bold(pad(d.title, 66))} ${score}${d.kind === "bonus" ? c.dim(" (bonus)") : ""}`);
    for (const check of d.checks) out.push(...renderCheck(c, check));
    out.push("");
  }
  const bonus = report.maxBonus > 0 ? `, bonus ${report.bonus}/${report.maxBonus}` : "";
  out.push(
    c.bold(`Score ${report.score}/${report.maxScore}${bonus}`) +
      c.dim(` · ${report.stats.crashStates.toLocaleString("en-US")} crash states checked in ${opts.seconds.toFixed(1)} s`),
  );
  return out.join("\n");
}

function renderCheck(c: ReturnType<typeof pc.createColors>, check: CheckReport): string[] {
  const color = check.status === "passed" ? c.green : check.status === "blocked" ? c.yellow : c.red;
  const lines = [`  ${color(MARK[check.status])} ${pad(check.title, 62)} ${color(`${check.points}/${check.maxPoints}`)}`];
  if (check.status === "passed") return lines;
  lines.push(c.dim(`      ${check.id}`));
  for (const line of (check.message ?? "").split("\n")) lines.push(`      ${line}`);
  if (check.replay) lines.push(c.cyan(`      replay: ${check.replay}`));
  return lines;
}

function scoreColor(c: ReturnType<typeof pc.createColors>, points: number, max: number) {
  return points === max ? c.green : points === 0 ? c.red : c.yellow;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text.slice(0, width - 1) + "…" : text.padEnd(width);
}
