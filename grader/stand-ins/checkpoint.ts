// The grader's stand-in for a student's checkpoint.ts. When a check of a later deliverable fails
// with the student's checkpoint.ts (Phase 2's runner.ts runs over it, say), the check is tried
// again with this file in its place, so that a bug in checkpoint.ts costs Phase 1 points and not
// these. It is not an answer to Phase 1: it writes the state in place, which a crash can tear,
// and is correct only because the grader's crash model makes each `save` whole (never cut
// inside, never torn), which no real disk does. Copied into a student's folder it is the
// write-in-place bug; imported from one, it does not compile (the bundler lets only this file,
// and only while it stands in for checkpoint.ts, import the sandbox's primitives).
import { load, save } from "@lab/stand-in";

export function atomicCheckpoint(path: string, state: unknown): void {
  save(path, JSON.stringify(state));
}

export function loadCheckpoint<T = unknown>(path: string): T | null {
  const text = load(path);
  return text === undefined ? null : (JSON.parse(text) as T);
}
