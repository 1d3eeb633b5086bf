// The order in which a grade runs its deliverables, so that a row is on screen within seconds and
// the core score comes before the bonus. Measured on 2 cores, the reference, cold:
// - all eight deliverables at once: they share the machine and all finish near the end (Phase 1
//   at 33.6 s of a 41 s grade);
// - the three Phases as one run, one process each: they share 2 cores 3 ways, and the first row
//   came at 8.3 s;
// - the quickest Phase alone (Phase 3, 4 checks, 2.7 s), then the rest one after another, no more
//   at once than there are processors: the first row at 3.3 s, the core score at 11.8 s, the whole
//   grade 21.4 s against 22.9 s.
// A check waits only on the verdicts of checks that come earlier in the manifest, and no Phase on
// another deliverable's, so running them in manifest order never leaves one waiting on a check
// that has not started.
import type { TestSequencer, TestSpecification } from "vitest/node";
import type { RubricDeliverable } from "../rubric.js";

/**
 * `files` (one per deliverable of `deliverables`, in the same order) in the runs to make one after
 * the other, each in the order its files are to start: first the core deliverable with the fewest
 * checks that waits on no other deliverable, alone; then the others in the order of `rank`, the
 * manifest's within it. No run is empty.
 */
export function runOrder(deliverables: RubricDeliverable[], files: string[]): string[][] {
  const entries = deliverables.map((deliverable, i) => ({ deliverable, file: files[i]! }));
  const first = entries
    .filter((e) => e.deliverable.kind === "core" && !waitsOnAnother(e.deliverable))
    .reduce<(typeof entries)[number] | undefined>((best, e) => (!best || e.deliverable.checks.length < best.deliverable.checks.length ? e : best), undefined);
  // Stable: the manifest's order within each rank.
  const rest = entries.filter((e) => e !== first).sort((a, b) => rank(a.deliverable) - rank(b.deliverable));
  return [first ? [first.file] : [], rest.map((e) => e.file)].filter((run) => run.length > 0);
}

/**
 * Core first. Then the bonus deliverables that wait on another's check: until it is decided they
 * hold a place among the processes a run may have at once and no processor, which leaves Phase 1
 * the machine (started before the bonus one that stands alone, it finished at 15.6 s, not 11.8 s).
 */
function rank(d: RubricDeliverable): number {
  return d.kind === "core" ? 0 : waitsOnAnother(d) ? 1 : 2;
}

function waitsOnAnother(d: RubricDeliverable): boolean {
  return d.checks.some((c) => (c.requires ?? []).some((r) => !d.checks.some((own) => own.id === r)));
}

/** A vitest sequencer that starts a run's files in the order `runOrder` gave them, not vitest's own (largest or slowest first). */
export function inGivenOrder(files: string[]): new () => TestSequencer {
  const rank = (spec: TestSpecification) => files.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return class {
    shard(specs: TestSpecification[]) {
      return specs;
    }
    sort(specs: TestSpecification[]) {
      return [...specs].sort((a, b) => rank(a) - rank(b));
    }
  };
}
