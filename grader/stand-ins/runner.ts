// The grader's stand-in for a student's runner.ts, for the deliverables that run over it
// (Phase 3's session.ts, the session-diffing stretch goal). It is not an answer to Phase 2: it
// keeps only how many steps are done, and takes the state after them from the grader, which
// knows the lab task's states; the save of that count is made whole by the grader's crash model.
// Neither is something a student's runner can have. It runs the lab's own task only.
import type { LabState, Task } from "@lab/task";
import { labStateAfter, load, save } from "@lab/stand-in";

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

export function runTask<S>(options: RunOptions<S>): RunResult<S> {
  const lab = options.task as unknown as Task<LabState>;
  const budget = options.maxSteps ?? lab.steps;
  let done = Number(load(options.checkpointPath) ?? 0);
  let state = labStateAfter(lab, done);
  for (let ran = 0; ran < budget && done < lab.steps; ran++) {
    state = lab.runStep(done + 1, state);
    done += 1;
    save(options.checkpointPath, String(done));
  }
  return { status: done === lab.steps ? "done" : "paused", nextStep: done + 1, state: state as unknown as S };
}
