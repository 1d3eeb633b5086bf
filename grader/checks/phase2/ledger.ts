// Judging a task run from the lab's side-effect record alone: which steps ran, how often, on what
// state. The runner's own file operations are never counted or ordered.
import { expectedDigests } from "../../../lab/task.js";
import { commandSpans, type CommandSpan } from "../../crash/commands.js";
import type { Effect, Trace } from "../../crash/model.js";
import type { PictureRun } from "../../contract/picture-runs.js";
import type { LabTaskSettings } from "../../rubric-task.js";
import { toldOutcome, type JudgedPlace } from "../../grading/told.js";

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

/** Names a state by its digest: "the initial state", "the state after step 5", or "a state the task never produced". */
/** What kind of state a digest is, the same whichever step: "the initial state", "another step's state", "a state the task never produced". */
export function stateKind(task: GradedTask, digest: string): string {
  const k = task.expected.outputs.indexOf(digest);
  return k === 0 ? "the initial state" : k > 0 ? "another step's state" : "a state the task never produced";
}

export function nameState(task: GradedTask, digest: string): string {
  const k = task.expected.outputs.indexOf(digest);
  return k === 0 ? "the initial state" : k > 0 ? `the state after step ${k}` : "a state the task never produced";
}

/**
 * Null when the record shows a correct recovery: every step ran, each on the state the step
 * before it produced, and step s at most `1 + extraRuns[s]` times (one more for each crash
 * that landed between step s's side effect and its boundary); otherwise what went wrong.
 */
export function judgeRecord(task: GradedTask, done: Done[], extraRuns: number[] = [], unit: "run" | "session" = "run"): string | null {
  const judged = (outcome: string, place?: JudgedPlace) => toldOutcome(outcome, { judged: true, place });
  for (const d of done) {
    if (d.step >= 1 && d.step <= task.steps) continue;
    const says = `runStep was called with step ${d.step}; the task's steps are 1 to ${task.steps}`;
    return judged("runStep was called with a step outside the task", { says }), says;
  }
  const steps = Array.from({ length: task.steps }, (_, i) => i + 1);
  const missing = steps.find((step) => !done.some((d) => d.step === step));
  if (missing !== undefined) return judged("a step never ran", { step: missing, says: `step ${missing} never ran` }), `step ${missing} never ran (the record holds ${held(done)})`;
  for (const d of done) {
    if (d.input !== task.expected.inputs[d.step]) {
      const says = `step ${d.step} ran (in ${unit} ${d.run}) with ${nameState(task, d.input)}; it must start from the state after step ${d.step - 1}${d.step === 1 ? " (the initial state)" : ""}`;
      judged(`a step ran with ${stateKind(task, d.input)}`, { step: d.step, run: d.run, says, wrongState: true });
      return says;
    }
  }
  for (const step of steps) {
    const runs = done.filter((d) => d.step === step);
    const allowed = 1 + (extraRuns[step] ?? 0);
    if (runs.length > allowed) {
      const why = allowed === 1
        ? "no crash landed between its side effect and its checkpoint, so it must run exactly once"
        : `only ${allowed - 1} crash${allowed > 2 ? "es" : ""} landed between its side effect and its checkpoint`;
      const says = `step ${step} ran ${runs.length} times (in ${unit}s ${runs.map((r) => r.run).join(", ")})`;
      judged(allowed === 1 ? "a step ran again with no crash between its side effect and its checkpoint" : "a step ran more times than crashes landed between its side effect and its checkpoint", { step, says, ranAgain: true });
      return `${says}: ${why}`;
    }
  }
  return null;
}

/** "steps 1, 2, 3, 3, 4", "only step 1" or "no step", in the order the record holds them. */
export function held(done: Done[]): string {
  if (done.length === 0) return "no step";
  if (done.length === 1) return `only step ${done[0]!.step}`;
  return `steps ${done.map((d) => d.step).join(", ")}`;
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
