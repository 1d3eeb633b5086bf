// Judging a task run from the lab's side-effect record alone: which steps ran, how often, on what
// state. The runner's own file operations are never counted or ordered.
import { expectedDigests } from "../../../lab/task.js";
import type { Effect, Trace } from "../../crash/model.js";
import type { LabTaskSettings } from "../../rubric-task.js";
import { toldOutcome } from "../../grading/told.js";
import type { CrashedRun, RecordWent, RecordWrong, TaskState } from "../../contract/finding.js";
import { recordOutcome, recordWrongWords, taskWrongMark } from "../../report/task-words.js";

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

/** The side effects a chain of crashed runs performed before each crash, in order, each attributed to its run. */
export function effectsBefore(crashes: CrashedRun[]): Done[] {
  return crashes.flatMap((c, i) => doneEffects(c.run.trace.entries.slice(0, c.cut.at), i + 1));
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
  toldOutcome(recordOutcome(wrong.went), { judged: true, place: taskWrongMark(wrong) });
  return recordWrongWords(wrong);
}
