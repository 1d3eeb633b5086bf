// Words every rendering of a report shares.
import type { DeliverableReport, Report } from "./report.js";

/** "1 crash state", "1,810 crash states". */
export function crashStates(n: number): string {
  return `${n.toLocaleString("en-US")} crash state${n === 1 ? "" : "s"}`;
}

/**
 * How many crash states this grade checked, in how long, and what the cache held: "3,112 crash
 * states checked in 25.5 s", "0 crash states checked in 3.1 s (7 of 8 deliverables from the
 * cache, which checked 1,532 more)". The terminal and the HTML page both say it in these words.
 */
export function checkedLine(report: Pick<Report, "deliverables" | "stats">, seconds: number): string {
  const cached = report.deliverables.filter((d) => d.cached);
  const fromCache = cached.reduce((n, d) => n + (d.crashStates ?? 0), 0);
  const more = fromCache > 0 ? `, which checked ${fromCache.toLocaleString("en-US")} more` : "";
  const note = cached.length > 0 ? ` (${cached.length} of ${report.deliverables.length} deliverables from the cache${more})` : "";
  return `${crashStates(report.stats.crashStates - fromCache)} checked in ${seconds.toFixed(1)}\u00a0s${note}`;
}

/**
 * Why a deliverable's verdicts are the cache's, for a deliverable with `cached`: "from the cache:
 * nothing it depends on changed since it was last graded here", or, when what it measures was
 * measured again, that only its checks' verdicts are.
 */
export function fromCacheWords(d: Pick<DeliverableReport, "remeasured">): string {
  return d.remeasured ? "its checks' verdicts from the cache: nothing they depend on changed since they were last graded here; what it measures was measured again" : "from the cache: nothing it depends on changed since it was last graded here";
}

/** What a grade of some checks only earned, said so that it cannot pass for the grade. */
export function partialLine(report: Report): string {
  const { only, maxScore, maxBonus } = report.partial!;
  const graded = [report.maxScore > 0 || report.maxBonus === 0 ? { graded: `${report.maxScore} of ${maxScore} core points`, earned: report.score } : null, report.maxBonus > 0 ? { graded: `${report.maxBonus} of ${maxBonus} bonus points`, earned: report.bonus } : null].filter((p) => p !== null);
  return `Partial grade (--only ${only.join(",")}): ${graded.map((p) => p.graded).join(" and ")} graded here; earned ${graded.map((p) => p.earned).join(" and ")}; ${gradeCommand(report.target)} gives the grade`;
}

/** The command that grades the same target in full. */
function gradeCommand(target: string): string {
  return target === "starter" || target === "" ? "npm run grade" : `npm run grade -- --target ${target}`;
}

/**
 * The label of a failure's command: "replay" for one that runs that one case again (--replay),
 * "partial grade" for one that grades the check again with --only: that one writes a partial
 * grade's report (.grade/partial/), and is no replay.
 */
export function commandLabel(command: string): "replay" | "partial grade" {
  return /(^| )--replay /.test(command) ? "replay" : "partial grade";
}

/** The same label starting a sentence or a field: "Replay", "Partial grade". */
export function commandTitle(command: string): string {
  return capitalised(commandLabel(command));
}

/** `text` with its first letter a capital, to start a sentence. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
