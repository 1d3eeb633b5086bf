// The outcome of one check, as a test carries it to the reporter in its `meta`.
import type { Picture } from "./picture.js";

export type CheckStatus = "passed" | "failed" | "error";

export interface Verdict {
  status: CheckStatus;
  /** For a failure: the story of the crash in the lab's words. For a pass: an optional note. */
  message?: string;
  /** The command that replays exactly this failure. */
  replay?: string;
  /** What the failure looked like, drawn with its story (contract/picture.ts). */
  picture?: Picture;
  /** What the failure came down to, as data: what the report compares, never the story. */
  cause?: Cause;
}

/**
 * What a failure came down to, as data. The report compares causes, not stories: whether a
 * blocked check's own failure is the one it waits on, whether a deliverable's file could not be
 * graded at all, whether a deliverable was not started.
 */
export interface Cause {
  /** The deliverable's files could not be compiled (or its own file is missing): no check of it ran. */
  wholeFile?: true;
  /** For a file missing from the repository's starter/: the command that brings it back, which the message ends with. */
  restore?: string;
  /** The failure is the check's own run with no crash, the run the check it waits on judges. */
  crashFreeRun?: true;
  /** The errors the target's code threw, or printed as it exited, that the story tells, in order. */
  errors?: TargetError[];
  /**
   * What went wrong, in words the same for every submission with this bug, made from what the
   * story was made from ("loadCheckpoint threw SyntaxError", "a step ran twice with no crash
   * between its side effect and its checkpoint"): what the class dashboard groups failures by.
   */
  outcome?: string;
  /** For a check the grader could not run: the first line of the grader's own error. */
  graderError?: string;
}

/** An error of the target's code, as the code gave it (a session's, as it printed it, its pid and paths hidden). */
export interface TargetError {
  /** The error's name ("TypeError"), or how a process ended ("exit code 1", "process.exit"). */
  name: string;
  code?: string;
  message: string;
}

/** Whether two errors are one: the same name, code and message. */
export function sameError(a: TargetError, b: TargetError): boolean {
  return a.name === b.name && a.code === b.code && a.message === b.message;
}

/** `errors` in order, each once (sameError). */
export function eachErrorOnce(errors: TargetError[]): TargetError[] {
  return errors.filter((e, i) => errors.findIndex((f) => sameError(f, e)) === i);
}

/** What a check test stores in `task.meta.check`. */
export interface CheckMeta extends Verdict {
  id: string;
  deliverable: string;
  crashStates: number;
  /** The check's own wall time in ms (0 when it did not run); varies from grade to grade. */
  durationMs: number;
  /** A check of it met a time limit (a verdict that may depend on how busy the machine was: never cached). */
  limitHit?: boolean;
  /** A `--replay` path was run (a check with no property to replay ignores it); with status "error", one that fits no case. */
  replayed?: boolean;
  /** When its deliverable began (its files' compiling) and when this check ended, in ms since the epoch. */
  span: [number, number];
}

declare module "vitest" {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
