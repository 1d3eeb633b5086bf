// Judging a task run from the lab's side-effect record alone: which steps ran, how often, on what
// state. The runner's own file operations are never counted or ordered.
import { expectedDigests } from "../../../lab/task.js";
import { commandSpans, type CommandSpan } from "../../crash/commands.js";
import type { Effect, Trace } from "../../crash/model.js";
import type { PictureRun } from "../../contract/picture-runs.js";
import type { LabTaskSettings } from "../../rubric-task.js";
import { toldOutcome, type JudgedPlace } from "../../grading/told.js";
import type { RecordWent, RecordWrong, TaskState } from "../../contract/finding.js";
import { recordOutcome, recordSays, recordWrongWords } from "../../report/task-words.js";

/** The lab task a grade runs (the manifest's "task"), with what a crash-free run of it does. */
export interface GradedTask extends LabTaskSettings {
  /** `inputs[s]`: the digest of the state step s starts from; `outputs[s]`: of the state after step s (`outputs[0]`: the initial state). */
  expected: { inputs: string[]; outputs: string[] };
}

const digestsBySteps = new Map<number, GradedTask["expected"]>();

/** The task `settings` describe (a grade's: `ctx.config.rubric.task`), its crash-free run worked out once per step count. */
export function gradedTask(settings: LabTaskSettings): GradedTask {
  let expected = digestsBySteps.get(settings.steps);
  if (!expected) digestsBySteps.set(settings.steps, (expected = expectedDigests({ steps: settings.steps })));
  return { ...settings, expected };
}

/** A side effect performed (runStep finished), with the run it happened in (1 = the first process). */
export interface Done {
  step: number;
  run: number;
  input: string;
  output?: string;
}

/** The performed side effects among `entries`, attributed to run `run`. */
export function doneEffects(entries: Trace["entries"], run: number): Done[] {
  return entries.filter((e): e is Effect => e.kind === "effect" && e.phase === "done").map((e) => ({ step: e.step, run, input: e.input, output: e.output }));
}

/** A state by what produced it, from its digest: the initial state, a step, or nothing the task does. */
export function stateOf(task: GradedTask, digest: string): TaskState {
  const k = task.expected.outputs.indexOf(digest);
  return k === 0 ? { kind: "initial" } : k > 0 ? { kind: "after-step", step: k } : { kind: "never-produced" };
}

/**
 * Null when the record shows a correct recovery: every step ran, each on the state the step
 * before it produced, and step s at most `1 + extraRuns[s]` times (one more for each crash
 * that landed between step s's side effect and its boundary); otherwise what went wrong.
 */
export function recordWrong(task: GradedTask, done: Done[], extraRuns: number[] = [], unit: RecordWrong["unit"] = "run"): RecordWrong | null {
  const wrong = (went: RecordWent): RecordWrong => ({ kind: "record", unit, went });
  const outside = done.find((d) => d.step < 1 || d.step > task.steps);
  if (outside) return wrong({ kind: "step-outside", step: outside.step, steps: task.steps });
  const steps = Array.from({ length: task.steps }, (_, i) => i + 1);
  const missing = steps.find((step) => !done.some((d) => d.step === step));
  if (missing !== undefined) return wrong({ kind: "never-ran", step: missing, held: done.map((d) => d.step) });
  const onWrongState = done.find((d) => d.input !== task.expected.inputs[d.step]);
  if (onWrongState) return wrong({ kind: "wrong-state", step: onWrongState.step, run: onWrongState.run, state: stateOf(task, onWrongState.input) });
  for (const step of steps) {
    const runs = done.filter((d) => d.step === step).map((d) => d.run);
    const crashes = extraRuns[step] ?? 0;
    if (runs.length > 1 + crashes) return wrong({ kind: "ran-again", step, runs, crashes });
  }
  return null;
}

/** recordWrong's judgement as a story still told as text says it, with its outcome and place told (grading/told.ts). */
export function judgeRecord(task: GradedTask, done: Done[], extraRuns: number[] = [], unit: RecordWrong["unit"] = "run"): string | null {
  const wrong = recordWrong(task, done, extraRuns, unit);
  if (!wrong) return null;
  toldOutcome(recordOutcome(wrong.went), { judged: true, place: recordPlace(wrong) });
  return recordWrongWords(wrong);
}

/** Where a runs picture marks the record's judgement: the step, the process, and what went wrong there. */
function recordPlace(wrong: RecordWrong): JudgedPlace {
  const { went } = wrong;
  const says = recordSays(wrong);
  switch (went.kind) {
    case "step-outside":
      return { says };
    case "never-ran":
      return { step: went.step, says };
    case "wrong-state":
      return { step: went.step, run: went.run, says, wrongState: true };
    case "ran-again":
      return { step: went.step, says, ranAgain: true };
  }
}

/**
 * Where a crash before trace entry `at` landed in the task: inside the window after step s's
 * side effect and before its boundary (`window: s`), or elsewhere (`window: 0`), in words, and as
 * a runs picture marks it (`killed`: the step and where at it, with the same words). With
 * `checkpointRepo` (the folder of a git-backed runner's repository), the window ends once a git
 * command moved that repository's HEAD: the step's commit finished.
 */
export function locateCrash(trace: Trace, at: number, options: { checkpointRepo?: string } = {}): { window: number; words: string; killed: Killed } {
  const { window, words, step, at: where } = placeCrash(trace, at, options.checkpointRepo);
  return { window, words, killed: { step, at: where, words } };
}

/** Where a runs picture marks a run killed (contract/picture-runs.ts). */
type Killed = NonNullable<PictureRun["killed"]>;

function placeCrash(trace: Trace, at: number, checkpointRepo: string | undefined): { window: number; words: string; step: number; at: Killed["at"] } {
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
    if (!first) return { window: 0, words: "before it ran any step", step: 0, at: "after" };
    if (first.step === 1) return { window: 0, words: "before step 1 started", step: 1, at: "before" };
    return { window: 0, words: `during its recovery, before its first step, step ${first.step}`, step: first.step, at: "before" };
  }
  if (last.phase === "enter") return { window: 0, words: `inside runStep(${last.step}), before its side effect`, step: last.step, at: "in-step" };
  const atBoundary = (next?.kind === "effect" && next.phase === "enter") || (next?.kind === "mark" && next.label === "return:runTask") || returned;
  if (atBoundary) return { window: 0, words: `at the boundary after step ${last.step}`, step: last.step, at: "after" };
  // A git-backed runner's checkpoint is its commit: once a git command moved HEAD after the step's
  // side effect, the step is checkpointed, whatever the runner still does before the boundary.
  if (checkpointRepo !== undefined && commandSpans(trace, lastAt).some((s) => s.git && s.end <= at && movesHead(trace, s, `@/${checkpointRepo}/.git`))) {
    return { window: 0, words: `after step ${last.step}'s side effect and its commit`, step: last.step, at: "after" };
  }
  return { window: last.step, words: `after step ${last.step}'s side effect, before the boundary after it`, step: last.step, at: "in-window" };
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
