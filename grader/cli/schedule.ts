// The order in which a grade runs its deliverables: one vitest run, no more files at once than
// the machine has processors, each file started in an order where every deliverable comes after
// those it builds on or waits on a check of. A deliverable's checks may wait for an earlier one's
// verdicts (a stand-in for an earlier file is tried only once that file's deliverable showed a
// bug: grading/verdict-board.ts), so an earlier one must have started: Phase 3 graded first, alone,
// got no Phase 2 verdict and was graded without the stand-in runner.ts it was owed.
// Among the deliverables ready to start: core first, then the bonus ones that wait on another's
// check (until it is decided they hold a place and no processor, which leaves Phase 1 the machine:
// started before a bonus one that stands alone, it finished at 15.6 s, not 11.8 s), then the rest,
// in the manifest's order within each. Measured on 2 cores, the reference, cold: all eight at once,
// Phase 1 finished at 33.6 s of a 41 s grade; the three Phases at once, the first row came at 8.3 s.
import type { TestSequencer, TestSpecification } from "vitest/node";
import type { Rubric, RubricDeliverable } from "../rubric.js";

/**
 * `files` (one per deliverable of `deliverables`, in the same order) in the order they are to
 * start: each after the deliverables it builds on or requires a check of (when graded too), and
 * otherwise by `rank`, then the manifest's order.
 */
export function runOrder(rubric: Rubric, deliverables: RubricDeliverable[], files: string[]): string[] {
  const left = deliverables.map((deliverable, i) => ({ deliverable, file: files[i]!, index: i }));
  const graded = new Set(deliverables.map((d) => d.id));
  const out: string[] = [];
  while (left.length > 0) {
    const started = new Set(deliverables.filter((d) => !left.some((e) => e.deliverable === d)).map((d) => d.id));
    const ready = left.filter((e) => dependsOn(rubric, e.deliverable).every((id) => started.has(id) || !graded.has(id)));
    // A cycle cannot happen (the manifest's loader refuses one); were it there, the rest in order.
    const pool = ready.length > 0 ? ready : left;
    const next = pool.reduce((best, e) => (rank(e.deliverable) < rank(best.deliverable) || (rank(e.deliverable) === rank(best.deliverable) && e.index < best.index) ? e : best));
    left.splice(left.indexOf(next), 1);
    out.push(next.file);
  }
  return out;
}

/** The deliverables `d` builds on or requires a check of. */
function dependsOn(rubric: Rubric, d: RubricDeliverable): string[] {
  const owners = d.checks.flatMap((c) => c.requires ?? []).map((r) => rubric.deliverables.find((o) => o.checks.some((c) => c.id === r))?.id);
  return [...new Set([...(d.buildsOn ?? []), ...owners.filter((id): id is string => id !== undefined && id !== d.id)])];
}

/** Core 0; bonus that waits on another deliverable's check 1; the rest 2. */
function rank(d: RubricDeliverable): number {
  return d.kind === "core" ? 0 : d.checks.some((c) => (c.requires ?? []).some((r) => !d.checks.some((own) => own.id === r))) ? 1 : 2;
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
