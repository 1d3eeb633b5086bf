// The lab module as the sandbox serves it to targets: the grader's pristine copy, with its side
// effects sent wherever the sandbox records them, and the steps of the manifest the grade runs.
import * as lab from "../../../../lab/task.js";
import type { SideEffect } from "../../../../lab/task.js";

/** The specifier student files import the lab's task from; the sandbox serves its own copy. */
export const LAB_SPECIFIER = "@lab/task";

/** The lab task's steps in this child: the manifest's once the grader has told them (useLabSteps), else the lab's own. */
let labSteps = lab.TASK_STEPS;

/** Serves the lab task with `steps` steps (the manifest's, from the child's configuration); undefined keeps the lab's own. */
export function useLabSteps(steps: number | undefined): void {
  if (steps !== undefined) labSteps = steps;
}

type LabTaskOptions = Parameters<typeof lab.labTask>[0];

/** Sends the lab's side effects to `record`, with the process id the sandbox chooses. */
export function labModule(record: (effect: SideEffect) => void, pid: () => number): Record<string, unknown> {
  lab.setSideEffectSink((effect) => record({ ...effect, pid: pid() }));
  const steps = labSteps;
  return Object.freeze({
    ...lab,
    TASK_STEPS: steps,
    labTask: (options?: LabTaskOptions) => lab.labTask({ ...options, steps: options?.steps ?? steps }),
    // The grader's own answers (the states of a crash-free run) are not the target's to read.
    setSideEffectSink: undefined,
    fileSink: undefined,
    expectedStates: undefined,
  });
}

/** Time spent inside the lab task's own steps since the last `takeStepMs()`. */
let stepMs = 0;

/** Returns the time spent inside the lab task's runStep since the last call, and starts counting again. */
export function takeStepMs(): number {
  const ms = stepMs;
  stepMs = 0;
  return ms;
}

/** Builds the objects a grader's argument stands for: `{ $task: { prompt } }` is a lab task (its steps timed, see `takeStepMs`). */
export function labArg(arg: { $task: { prompt?: string } }): unknown {
  const task = lab.labTask({ ...arg.$task, steps: labSteps });
  const runStep = task.runStep;
  return {
    ...task,
    runStep(step: number, state: lab.LabState): lab.LabState {
      const started = performance.now();
      try {
        return runStep(step, state);
      } finally {
        stepMs += performance.now() - started;
      }
    },
  };
}
