// Words every rendering of a report shares.
import type { Report } from "./report.js";

/** "1 crash state", "1,810 crash states". */
export function crashStates(n: number): string {
  return `${n.toLocaleString("en-US")} crash state${n === 1 ? "" : "s"}`;
}

/** What a grade of some checks only earned, said so that it cannot pass for the grade. */
export function partialLine(report: Report): string {
  const { only, maxScore, maxBonus } = report.partial!;
  const graded = [report.maxScore > 0 || report.maxBonus === 0 ? { graded: `${report.maxScore} of ${maxScore} core points`, earned: report.score } : null, report.maxBonus > 0 ? { graded: `${report.maxBonus} of ${maxBonus} bonus points`, earned: report.bonus } : null].filter((p) => p !== null);
  return `Partial grade (--only ${only.join(" ")}): ${graded.map((p) => p.graded).join(" and ")} graded here; earned ${graded.map((p) => p.earned).join(" and ")}; ${gradeCommand(report.target)} gives the grade`;
}

/** The command that grades the same target in full. */
function gradeCommand(target: string): string {
  return target === "starter" || target === "" ? "npm run grade" : `npm run grade -- --target ${target}`;
}
