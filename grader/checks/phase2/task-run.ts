// The Phase 2 scenario pieces: calling runTask on the lab task, and reading what a run returned.
import { callErrors } from "../../grading/calls.js";
import { toldError, toldOutcome } from "../../grading/told.js";
import type { TaskResultWrong } from "../../contract/finding.js";
import type { GitHistory } from "../../sandbox/git/git-history.js";
import type { CallResult, ScenarioStep } from "../../sandbox/messages/scenario.js";
import { stateOf, type Done, type GradedTask } from "./ledger.js";
import { dueStatus, taskResultOutcome, taskResultSays, taskResultWords } from "../../report/task-words.js";

/** The checkpoint path of every Phase 2 scenario. */
export const TASK_CHECKPOINT = { $path: "work/task-checkpoint.json" };

/**
 * How a task run is set up: the module whose runTask is called, the checkpoint path it gets, and,
 * for a git-backed runner, the folder whose repository is read after each run and how it is judged.
 */
export interface TaskSetup {
  module: string;
  checkpoint: { $path: string };
  inspectGit?: string;
  /** What is wrong with the repository after a run that did `stepsDone` steps, or null. */
  judgeRepo?: (git: GitHistory | undefined, stepsDone: number) => string | null;
}

/** Phase 2's setup: runner.ts, with its checkpoint in the scenario's work folder. */
export const FILE_SETUP: TaskSetup = { module: "runner", checkpoint: TASK_CHECKPOINT };

/** A call of runTask on the lab task (a new task object each time, as a new process would make). */
export function runTaskStep(maxSteps?: number, checkpoint = TASK_CHECKPOINT): ScenarioStep {
  const options: Record<string, unknown> = { task: { $task: {} }, checkpointPath: checkpoint };
  if (maxSteps !== undefined) options.maxSteps = maxSteps;
  return { call: "runTask", args: [options] };
}

export const restart: ScenarioStep = { fresh: true };

/**
 * Null when runTask returned `{ status, nextStep }` as expected after `stepsDone` steps (and the
 * final state once done); otherwise what it did instead.
 */
export function runResultWrong(task: GradedTask, r: CallResult, stepsDone: number): TaskResultWrong | null {
  const wrong = (got: TaskResultWrong["got"]): TaskResultWrong => ({ kind: "task-result", stepsDone, steps: task.steps, got });
  if (r.status !== "returned" || !r.value.run) return wrong({ kind: "call", call: { fn: "runTask", shown: "runTask", result: r } });
  const { status, nextStep, stateDigest } = r.value.run;
  if (status !== dueStatus({ stepsDone, steps: task.steps }) || nextStep !== stepsDone + 1) return wrong({ kind: "run", status, nextStep });
  if (stateDigest !== task.expected.outputs[stepsDone]) return wrong({ kind: "state", state: stateDigest ? stateOf(task, stateDigest) : null });
  return null;
}

/** A runTask call, after a crash, that did not return: told as the call with the steps the record `done` then holds, not with the run expected; null when it returned. */
export function unreturnedRun(task: GradedTask, r: CallResult, done: Done[]): TaskResultWrong | null {
  if (r.status === "returned") return null;
  return { kind: "task-result", stepsDone: task.steps, steps: task.steps, got: { kind: "call", call: { fn: "runTask", shown: "runTask", result: r }, held: done.map((d) => d.step) } };
}

/** runResultWrong's judgement as a story still told as text says it, with the error and outcome it tells (grading/told.ts). */
export function checkRunResult(task: GradedTask, r: CallResult, stepsDone: number): string | null {
  const wrong = runResultWrong(task, r, stepsDone);
  if (!wrong) return null;
  toldOutcome(taskResultOutcome(wrong), { judged: true, place: { says: taskResultSays(wrong) } });
  for (const e of callErrors(r)) toldError(e);
  return taskResultWords(wrong);
}
