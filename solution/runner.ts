// Phase 2 reference: resume from the checkpoint, run each remaining step, checkpoint after each.
//
// The checkpoint holds the state together with the number of the next step, written in one
// atomic write after the step's side effect. A crash before that write re-runs only that step;
// a crash after it loses nothing. A finished checkpoint runs nothing.
import type { Task } from "@lab/task";
import { atomicCheckpoint, loadCheckpoint } from "./checkpoint";

export interface RunOptions<S> {
  task: Task<S>;
  checkpointPath: string;
  maxSteps?: number;
}

export interface RunResult<S> {
  status: "paused" | "done";
  nextStep: number;
  state: S;
}

interface Saved<S> {
  taskId: string;
  nextStep: number;
  state: S;
}

export function runTask<S>({ task, checkpointPath, maxSteps = Infinity }: RunOptions<S>): RunResult<S> {
  const saved = loadCheckpoint<Saved<S>>(checkpointPath);
  let { nextStep, state } = saved ?? { nextStep: 1, state: task.initialState() };
  for (let ran = 0; nextStep <= task.steps && ran < maxSteps; ran++) {
    state = task.runStep(nextStep, state);
    nextStep += 1;
    atomicCheckpoint(checkpointPath, { taskId: task.id, nextStep, state } satisfies Saved<S>);
  }
  return { status: nextStep > task.steps ? "done" : "paused", nextStep, state };
}
