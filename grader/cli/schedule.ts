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
 * otherwise core first, then bonus ones that require another's check, then the rest, each in the
 * manifest's order.
 */
export function runOrder(rubric: Rubric, deliverables: RubricDeliverable[], files: string[]): string[] {
  const graded = new Set(deliverables.map((d) => d.id));
  // In the manifest's order, so that the first of equal rank is the manifest's first.
  const left = deliverables.map((d, i) => {
    const required = requiredOwners(rubric, d);
    const rank = d.kind === "core" ? 0 : required.length > 0 ? 1 : 2;
    return { file: files[i]!, id: d.id, rank, after: [...new Set([...(d.buildsOn ?? []), ...required])].filter((id) => graded.has(id)) };
  });
  const started = new Set<string>();
  const out: string[] = [];
  while (left.length > 0) {
    const ready = left.filter((e) => e.after.every((id) => started.has(id)));
    // A cycle cannot happen (the manifest's loader refuses one); were it there, the rest in order.
    const next = (ready.length > 0 ? ready : left).reduce((best, e) => (e.rank < best.rank ? e : best));
    left.splice(left.indexOf(next), 1);
    started.add(next.id);
    out.push(next.file);
  }
  return out;
}

/** The other deliverables `d` requires a check of. */
function requiredOwners(rubric: Rubric, d: RubricDeliverable): string[] {
  const owners = d.checks.flatMap((c) => c.requires ?? []).map((r) => rubric.deliverables.find((o) => o.checks.some((c) => c.id === r))?.id);
  return owners.filter((id): id is string => id !== undefined && id !== d.id);
}

/** A vitest sequencer that starts a run's files in the order `runOrder` gave them, not vitest's own (largest or slowest first). */
export function inGivenOrder(files: string[]): new () => TestSequencer {
  const position = (spec: TestSpecification) => files.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return class {
    shard(specs: TestSpecification[]) {
      return specs;
    }
    sort(specs: TestSpecification[]) {
      return [...specs].sort((a, b) => position(a) - position(b));
    }
  };
}
