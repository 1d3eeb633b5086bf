// Phase 2: crash recovery.
//
// runTask runs a task step by step and checkpoints after every step, so that a process killed at
// any instant can be started again and carry on where the last one stopped, without losing a
// step and without doing one twice (each step has a side effect the lab counts).
import type { Task } from "@lab/task";
import { atomicCheckpoint, loadCheckpoint } from "./checkpoint";

export interface RunOptions<S> {
  task: Task<S>;
  checkpointPath: string;
  /** Run at most this many steps in this call, then return "paused". No limit when absent. */
  maxSteps?: number;
}

export interface RunResult<S> {
  status: "paused" | "done";
  /** The number of the next step to run: `task.steps + 1` once the task is done. */
  nextStep: number;
  state: S;
}

/**
 * Runs the task from where its checkpoint says it stopped, checkpointing after every step.
 *
 * Picture the process killed at each line of your loop, then started again. What must the
 * checkpoint hold so the new process knows both the state and which step comes next? If the kill
 * lands after a step's side effect but before its checkpoint is written, that step will run again:
 * is there an order of "run the step" and "write the checkpoint" that keeps that window as small
 * as it can be? And what should happen when the checkpoint says every step is already done?
 */
export function runTask<S>(options: RunOptions<S>): RunResult<S> {
  // TODO: load the checkpoint (or start from task.initialState()), run the remaining steps in
  // order with task.runStep, checkpoint after each one, and stop at maxSteps or at the end.
  throw new Error("not implemented yet: runTask (starter/runner.ts)");
}
