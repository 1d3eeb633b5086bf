// The primitives the sandbox serves the stand-ins (sandbox/runtime/target/stand-in-module.ts).
declare module "@lab/stand-in" {
  import type { LabState, Task } from "@lab/task";
  /** Writes `text` to `file` in place, as one whole operation of the grader's crash model. */
  export function save(file: string, text: string): void;
  /** What `file` holds, or undefined when there is none. */
  export function load(file: string): string | undefined;
  /** The lab task's state after `done` steps of a crash-free run. */
  export function labStateAfter(task: Task<LabState>, done: number): LabState;
}
