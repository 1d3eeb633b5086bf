// Whole points per check for a platform that accepts only integers (Classroom 50). With the
// default rubric every weight is whole and nothing changes. With fractional weights each check is
// rounded so that the checks add up to the report's own totals, each rounded to the nearest whole
// point (halves up): the passed checks share the rounded score, the failed ones what is left of the
// rounded maximum. A passed check always shows full marks, a failed one 0.
import type { CheckReport } from "../report.js";

export interface WholeCheck {
  check: CheckReport;
  score: number;
  maxScore: number;
}

/** The nearest whole number, halves up, ignoring the float noise of sums such as 0.1 + 0.2. */
export function roundPoints(points: number): number {
  return Math.floor(points + 0.5 + 1e-9);
}

/**
 * Integers that add up to `total` (which lies between the sum of the floors and of the ceilings):
 * each weight's floor, plus one for the largest fractional parts, earlier weights first on a tie.
 */
export function apportion(weights: number[], total: number): number[] {
  const floors = weights.map((w) => Math.floor(w + 1e-9));
  let left = total - floors.reduce((n, f) => n + f, 0);
  const byFraction = weights.map((w, i) => ({ i, fraction: w - floors[i]! })).sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (const { i } of byFraction) if (left-- > 0) floors[i]! += 1;
  return floors;
}

/** Whole points for `checks`: the scores add up to the rounded sum of their points, the maximums to the rounded sum of their maximums. */
export function wholePoints(checks: CheckReport[]): WholeCheck[] {
  const passed = checks.filter((c) => c.status === "passed");
  const failed = checks.filter((c) => c.status !== "passed");
  const score = roundPoints(passed.reduce((n, c) => n + c.maxPoints, 0));
  const max = roundPoints(checks.reduce((n, c) => n + c.maxPoints, 0));
  const passedPoints = apportion(passed.map((c) => c.maxPoints), score);
  const failedMax = apportion(failed.map((c) => c.maxPoints), max - score);
  const whole = new Map<CheckReport, WholeCheck>();
  passed.forEach((check, i) => whole.set(check, { check, score: passedPoints[i]!, maxScore: passedPoints[i]! }));
  failed.forEach((check, i) => whole.set(check, { check, score: 0, maxScore: failedMax[i]! }));
  return checks.map((c) => whole.get(c)!);
}
