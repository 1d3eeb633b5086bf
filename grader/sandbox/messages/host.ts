// The messages between the grader and a sandbox host serving requests (one request, one reply,
// through Node's IPC), and the configuration the host starts with.
import type { Cut } from "../../crash/model.js";
import type { Effect, Trace } from "../../crash/model.js";
import type { GitHistory } from "../git/git-history.js";
import type { CallResult, FaultReport, ScenarioStep } from "./scenario.js";

/** What a host starts with: its command line carries it, after the serve mode's flag. */
export interface HostConfig {
  /** Bundle file of each module the grader may call, by name ("checkpoint", ...). */
  modules: Record<string, string>;
  targetDir: string;
  /** A folder of the host's own for scenario folders. */
  work: string;
  /** The time limit of one call into the target. */
  callMs: number;
  /** The check's seed: each simulated process's random numbers come from it (see runtime/target/random-streams.ts). */
  seed: number;
  /**
   * A folder on another file system than `work`, when there is one: each scenario's TMPDIR lives
   * there, so a temp file made in os.tmpdir() cannot be renamed over the checkpoint (EXDEV), as
   * on the many machines where /tmp is a file system of its own.
   */
  tmpBase?: string;
  /**
   * The host's user is its own alone (the grade runs targets as separate users, and the host is
   * not below a shell of that user): after each scenario, any other process of that user is the
   * target's leftover, and ends.
   */
  ownUser?: boolean;
  /**
   * Whether crash states share a recovery run where their disks hold the same wherever it looked
   * (see runtime/shared-runs.ts); on unless false. Off, each disk is recovered on its own.
   */
  shareRecoveries?: boolean;
  /** The lab task's steps, the manifest's (grader/rubric.json, "task"); the lab's own when absent. */
  labSteps?: number;
}

/** A file left in the scenario folder, for messages. */
export interface DiskEntry {
  path: string;
  size: number;
  preview: string;
}

/** The disk a crash left: a kept trace replayed up to a cut. */
export interface CrashPoint {
  traceId: string;
  cut: Cut;
  /**
   * Which trace this is within its case ("c2": the case's second recording), the same in a grade
   * and in a replay of that case; the processes started from it draw their numbers from this.
   */
  key?: string;
}

export interface Scenario {
  /**
   * Start from the disk these crashes left, replayed in order (a recovery run that crashed in
   * turn is a trace recorded over the first crash's disk); otherwise from empty folders.
   */
  from?: CrashPoint[];
  steps: ScenarioStep[];
  /** The process id of the scenario's first instance (to replay a restart that got the crashed process's id). */
  pid?: number;
  /** After the steps, read the history of the git repository in this folder ("work"). */
  inspectGit?: string;
}

export type Request =
  | { type: "run"; module: string; scenario: Scenario; record: boolean; listDisk: boolean; newCase?: boolean }
  /** Replies with a `ManyReply` per cut. */
  | { type: "runMany"; module: string; base: CrashPoint[]; traceId: string; traceKey?: string; cuts: Cut[]; steps: ScenarioStep[]; pid?: number; inspectGit?: string; newCase?: boolean }
  | { type: "putTrace"; traceId: string; trace: Trace }
  | { type: "ping" };

export interface RunReply {
  results: CallResult[];
  /** The lab task's side effects during the run, in order. */
  effects: Effect[];
  trace?: Trace;
  disk?: DiskEntry[];
  /** The git repository's history, when the scenario asked for it. */
  git?: GitHistory;
  /** The fault points met and the fault made, when the scenario turned faults on. */
  faults?: FaultReport;
}

export type Reply =
  | { ok: true; value: unknown }
  | { ok: false; needTrace?: string; error: string };

/** What one crash state's recovery did: its calls and the side effects it performed. */
export interface ManyReply {
  results: CallResult[];
  effects: Effect[];
  git?: GitHistory;
  /** True when this crash state took the reply of an earlier one's run (see runtime/shared-runs.ts). */
  shared?: boolean;
}
