// The Phase 2 scenario pieces: calling runTask on the lab task, and reading what a run returned.
import { describeResult, toldUnexpected } from "../../grading/calls.js";
import { toldOutcome } from "../../grading/told.js";
import type { GitHistory } from "../../sandbox/git/git-history.js";
import type { CallResult, ScenarioStep } from "../../sandbox/messages/scenario.js";
import { stateOf, type GradedTask } from "./ledger.js";
import { stateKindWords, stateWords } from "../../report/record-words.js";

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
export function checkRunResult(task: GradedTask, r: CallResult, stepsDone: number): string | null {
  const status = stepsDone >= task.steps ? "done" : "paused";
  const expected = `{ status: "${status}", nextStep: ${stepsDone + 1} }`;
  if (r.status !== "returned" || !r.value.run) toldUnexpected("runTask", r);
  if (r.status !== "returned") return `${describeResult("runTask", r)}; expected it to return ${expected}`;
  const run = r.value.run;
  if (!run) return `runTask returned ${r.value.preview}; expected ${expected}`;
  if (run.status !== status || run.nextStep !== stepsDone + 1) {
    const says = `runTask returned { status: ${JSON.stringify(run.status)}, nextStep: ${JSON.stringify(run.nextStep)} }; expected ${expected} after ${stepsDone} of ${task.steps} steps`;
    toldOutcome(`runTask returned the wrong ${run.status !== status ? "status" : "nextStep"}`, { judged: true, place: { says } });
    return says;
  }
  if (run.stateDigest !== task.expected.outputs[stepsDone]) {
    const says = `runTask returned status "${status}" with ${run.stateDigest ? stateWords(stateOf(task, run.stateDigest)) : "no state"}; expected the state after step ${stepsDone}${status === "done" ? " (the final state)" : ""}`;
    toldOutcome(`runTask returned ${run.stateDigest ? stateKindWords(stateOf(task, run.stateDigest)) : "no state"} instead of the state after its last step`, { judged: true, place: { says } });
    return says;
  }
  return null;
}
