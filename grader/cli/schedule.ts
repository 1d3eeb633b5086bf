// The order in which a grade runs its deliverables: the core ones (the Phases) first, then the
// bonus ones. On two cores, eight deliverables started at once share the machine and all finish
// near the end (Phase 1 took 33.6 s of a 41 s grade); the three Phases graded alone took 10.3 s.
// No core check waits on a bonus one: a check waits only on the verdicts of the deliverables it
// builds on, which come earlier in the manifest.
import type { RubricDeliverable } from "../rubric.js";

/** `files` (one per deliverable of `deliverables`, in the same order) in the batches to run one after the other: the core ones, then the rest; no batch is empty. */
export function coreFirst(deliverables: RubricDeliverable[], files: string[]): string[][] {
  const core = files.filter((_, i) => deliverables[i]!.kind === "core");
  const rest = files.filter((_, i) => deliverables[i]!.kind !== "core");
  return [core, rest].filter((batch) => batch.length > 0);
}
