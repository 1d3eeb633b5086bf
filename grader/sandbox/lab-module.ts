// The lab module as the sandbox serves it to targets: the grader's pristine copy, with its side
// effects sent wherever the sandbox records them.
import * as lab from "../../lab/task.js";
import type { SideEffect } from "../../lab/task.js";

/** The specifier student files import the lab's task from; the sandbox serves its own copy. */
export const LAB_SPECIFIER = "@lab/task";

/** Sends the lab's side effects to `record`, with the process id the sandbox chooses. */
export function labModule(record: (effect: SideEffect) => void, pid: () => number): Record<string, unknown> {
  lab.setSideEffectSink((effect) => record({ ...effect, pid: pid() }));
  // The grader's own answers (the states of a crash-free run) are not the target's to read.
  return Object.freeze({ ...lab, setSideEffectSink: undefined, fileSink: undefined, expectedStates: undefined });
}

/** Builds the objects a grader's argument stands for: `{ $task: { prompt } }` is a lab task. */
export function labArg(arg: { $task: { prompt?: string } }): unknown {
  return lab.labTask(arg.$task);
}
