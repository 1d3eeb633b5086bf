// The messages between the grader and the child in process mode, a real process of the target's
// (runtime/process.ts): the configuration it reads on standard input, how it is to be killed,
// and what it tells the grader on its report pipe.
import type { SideEffect } from "../../../lab/task.js";
import type { CallResult, ScenarioStep } from "./scenario.js";

export interface KillRule {
  /** During the n-th write, once `fraction` of its bytes are written. */
  nthWrite?: number;
  fraction?: number;
  /** Just before the n-th operation that changes the disk (a write is torn at `fraction`). */
  nthChange?: number;
  /** As runStep(n) of the lab task is entered. */
  enterStep?: number;
}

export interface ProcessConfig {
  bundle: string;
  /** The target file the bundle was made from ("session.ts"). */
  entry: string;
  targetDir: string;
  /** The scenario folder, with work/, tmp/ and cwd/ already made. */
  root: string;
  /** Calls to make; or, with `argv`, run the bundle as a program with this command line. */
  steps?: ScenarioStep[];
  argv?: string[];
  kill?: KillRule;
  /** The working folder (default: the scenario's cwd/). */
  cwd?: string;
  /** The time limit of one call (in steps mode). */
  callMs: number;
  /** The lab task's steps, the manifest's (grader/rubric.json, "task"); the lab's own when absent. */
  labSteps?: number;
}

/**
 * What the process tells the grader, one JSON line each on descriptor 3 (a pipe): the lab's side
 * effects as they happen, the calls' results, the write torn by a kill, and the changes made.
 * Nothing goes through files the target could find and rewrite, and the configuration arrives
 * on standard input, so it is not on the command line either.
 */
export type ProcessMessage =
  | { effect: SideEffect }
  | { results: CallResult[] }
  | { torn: Torn }
  | { changes: number }
  /** The runtime's own process id (its parent is a shell, see limitedCommand). */
  | { pid: number };

/** Where a kill landed: in the middle of a write (`written` of `of` bytes), or before a change; `command`: inside a command the target ran, which went on to its end. */
export interface Torn {
  api: string;
  file: string | null;
  written: number;
  of: number;
  command?: boolean;
}
