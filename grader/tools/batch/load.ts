// How many grades run side by side, and how much longer each may take by the wall. One grade keeps
// about two cores busy; grades run side by side get fewer cores each, so the wall time a grade may
// take grows by the same factor. The rubric's own limits count processor time, which does not.

/** The cores one grade keeps busy. */
const CORES_PER_GRADE = 2;

/** How many grades to run at once by default: one per two cores, at least one. */
export function defaultJobs(cores: number): number {
  return Math.max(1, Math.floor(cores / CORES_PER_GRADE));
}

/** How much slower each grade may run when `jobs` grades share `cores`: 1 when each has its two cores. */
export function loadFactor(jobs: number, cores: number): number {
  return Math.max(1, (jobs * CORES_PER_GRADE) / Math.max(1, cores));
}
