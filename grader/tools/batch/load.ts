// Time limits that scale with the load. The rubric's limits are generous enough for one grade on
// a loaded 2-core machine, and one grade keeps about two cores busy; grades run side by side get
// fewer cores each, so their time limits grow by the same factor (memory and file limits do not).
import fs from "node:fs";
import path from "node:path";
import type { Rubric } from "../../rubric.js";
import type { Limits } from "../../sandbox/messages/limits.js";

/** The cores one grade keeps busy. */
const CORES_PER_GRADE = 2;

const TIME_LIMITS: (keyof Limits)[] = ["callMs", "processMs", "checkMs"];

/** How many grades to run at once by default: one per two cores, at least one. */
export function defaultJobs(cores: number): number {
  return Math.max(1, Math.floor(cores / CORES_PER_GRADE));
}

/** How much slower each grade may run when `jobs` grades share `cores`: 1 when each has its two cores. */
export function loadFactor(jobs: number, cores: number): number {
  return Math.max(1, (jobs * CORES_PER_GRADE) / Math.max(1, cores));
}

/** The rubric with its time limits multiplied by `factor` (rounded up to whole milliseconds). */
export function scaledRubric(rubric: Rubric, factor: number): Rubric {
  const limits = { ...rubric.limits };
  for (const key of TIME_LIMITS) limits[key] = Math.ceil(limits[key] * factor);
  return { ...rubric, limits };
}

/** Writes `rubric` as a rubric file in `dir` and returns its path. */
export function writeRubric(rubric: Rubric, dir: string): string {
  const file = path.join(dir, "rubric.json");
  fs.writeFileSync(file, JSON.stringify(rubric, null, 2) + "\n");
  return file;
}
