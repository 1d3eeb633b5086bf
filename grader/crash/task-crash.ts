// Where a crash lands in a run of the lab task, in the task's terms (a step, its side effect, its
// boundary), read from the run's recorded trace alone: the same place whatever the runner's own
// file operations were. Its words are report/task-words.ts's.
import { commandSpans, type CommandSpan } from "./commands.js";
import type { Effect, Trace } from "./model.js";

/**
 * Where a crash fell: before the run ran any step; before `step` started (step 1 on a fresh run,
 * a later step on a recovering one); inside runStep(`step`) before its side effect; at the
 * boundary after `step`; after `step`'s side effect and the git commit that checkpoints it; or in
 * the window after `step`'s side effect and before its boundary, the one place a step may run again.
 */
export type CrashPlace =
  | { kind: "before-any-step" }
  | { kind: "before-step"; step: number }
  | { kind: "in-step"; step: number }
  | { kind: "at-boundary"; step: number }
  | { kind: "after-commit"; step: number }
  | { kind: "in-window"; step: number };

/** The step whose window the crash fell in (it may run once more), or 0. */
export function crashWindow(place: CrashPlace): number {
  return place.kind === "in-window" ? place.step : 0;
}

/**
 * Where a crash before trace entry `at` landed in the task. With `checkpointRepo` (the folder of a
 * git-backed runner's repository), a step's window ends once a git command moved that
 * repository's HEAD: the step's commit finished.
 */
export function placeCrash(trace: Trace, at: number, { checkpointRepo }: { checkpointRepo?: string } = {}): CrashPlace {
  let last: Effect | undefined;
  let lastAt = -1;
  for (let i = 0; i < at && i < trace.entries.length; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "effect") [last, lastAt] = [e, i];
  }
  const next = trace.entries[at];
  const returned = trace.entries.slice(0, at).some((e) => e.kind === "mark" && e.label === "return:runTask");
  if (!last) {
    // No step yet in this run: it is recovering; name the step it was about to run.
    const first = trace.entries.slice(at).find((e): e is Effect => e.kind === "effect");
    return first ? { kind: "before-step", step: first.step } : { kind: "before-any-step" };
  }
  if (last.phase === "enter") return { kind: "in-step", step: last.step };
  const atBoundary = (next?.kind === "effect" && next.phase === "enter") || (next?.kind === "mark" && next.label === "return:runTask") || returned;
  if (atBoundary) return { kind: "at-boundary", step: last.step };
  // A git-backed runner's checkpoint is its commit: once a git command moved HEAD after the step's
  // side effect, the step is checkpointed, whatever the runner still does before the boundary.
  if (checkpointRepo !== undefined && commandSpans(trace, lastAt).some((s) => s.git && s.end <= at && movesHead(trace, s, `@/${checkpointRepo}/.git`))) {
    return { kind: "after-commit", step: last.step };
  }
  return { kind: "in-window", step: last.step };
}

/**
 * True when git command `span` moved the HEAD of the repository whose folder is `gitDir`: it wrote
 * the branch HEAD names (as the trace last wrote HEAD; `main`, the grader's git's first branch,
 * when it never did) or a detached HEAD. Another branch moving is not the checkpoint.
 */
function movesHead(trace: Trace, span: CommandSpan, gitDir: string): boolean {
  const head = `${gitDir}/HEAD`;
  const paths = new Map<number, string>();
  let branch = `${gitDir}/refs/heads/main`;
  let moved = false;
  trace.entries.slice(0, span.end).forEach((e, i) => {
    if (e.kind === "open") paths.set(e.fd, e.path);
    if (e.kind !== "write") return;
    const path = paths.get(e.fd);
    const text = path === head ? Buffer.from(e.bytes).toString("utf8").trim() : "";
    if (path === head && text.startsWith("ref: ")) branch = `${gitDir}/${text.slice(5)}`;
    if (i >= span.start && (path === branch || (path === head && !text.startsWith("ref: ")))) moved = true;
  });
  return moved;
}
