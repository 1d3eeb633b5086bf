// What every mode of the child runs and reports back: the steps of a scenario (calls into the
// target, the grader's own files, disk faults) and what each call did, as the grader sees it from
// the outside.
/** A value passed to a target function; `{ $path: "work/x" }` becomes a path in the scenario folder. */
export type Arg = unknown;

/** One step of a scenario, run in order inside one host. */
export type ScenarioStep =
  /** A call into the target; with `want: "value"`, its JSON return value comes back too (see `ValueSummary.value`). */
  | { call: string; args: Arg[]; want?: "value" }
  | { fresh: true }
  | { mark: string }
  /** The grader puts a file in place (recorded like the target's writes, so crash states keep it). */
  | { put: string; content: string }
  /** The grader makes an empty folder (and its parents), recorded like `put`. */
  | { mkdir: string }
  /** From here the disk may say no: `inject` is the fault it makes (none: the fault points are only counted); "off" ends it. */
  | { faults: { inject?: Fault } | "off" };

/**
 * A fault of the disk, at the `index`-th (from 0) operation of its kind after faults were turned
 * on: a write that writes only `bytes` and returns that; a full disk, hit by a write after `bytes`
 * of it (0: the write fails at once) or by the creation of a file or folder; an fsync that fails with EIO.
 */
export type Fault =
  | { kind: "short-write"; index: number; bytes: number }
  | { kind: "disk-full"; on: "write"; index: number; bytes: number }
  | { kind: "disk-full"; on: "create"; index: number }
  | { kind: "failed-fsync"; index: number };

/** An operation the disk could have failed: a write (of `bytes`), the creation of `file`, or an fsync of it. */
export interface FaultPoint {
  on: "write" | "create" | "fsync";
  /** Its place among the operations of its kind, from 0. */
  index: number;
  /** The API the target called ("writeFileSync"). */
  api: string;
  /** The file, as stored in a trace ("@/work/checkpoint.json"). */
  file: string;
  bytes?: number;
}

/** The fault points a scenario met while faults were on, and the one that failed. */
export interface FaultReport {
  points: FaultPoint[];
  injected?: FaultPoint;
}

/** What one call into the target did, as the grader sees it from the outside. */
export type CallResult =
  /** `ms`: how long the call took in the host, the lab task's own steps left out (for measurements; never for a verdict). */
  /** `unfinished`: file-system calls it started (fs.promises, callbacks, streams) that had not run when it returned. */
  | { status: "returned"; value: ValueSummary; ms?: number; unfinished?: number }
  | { status: "threw"; error: ErrorSummary }
  | { status: "exited"; detail: string }
  | { status: "missing"; detail: string }
  /**
   * Stopped by the time limit; `importing` when it was the module's top level. A call after one
   * that timed out is never made: `skippedAfter` says which ("loadCheckpoint did not return within 5 s").
   */
  | { status: "timed-out"; detail: string; importing?: boolean; skippedAfter?: string }
  | { status: "import-failed"; error: ErrorSummary };

export interface ValueSummary {
  /** Digest of the canonical JSON, or null when the value was `undefined` or not JSON. */
  digest: string | null;
  /** The start of the canonical JSON, for messages. */
  preview: string;
  isNull: boolean;
  /** For a run result ({ status, nextStep, state }): its fields, with the state as a digest. */
  run?: { status: unknown; nextStep: unknown; stateDigest: string | null };
  /** The value itself (a JSON copy), when the step asked for it and it is at most `MAX_VALUE_BYTES` of JSON. */
  value?: unknown;
}

/** The largest return value (as JSON) a host sends back whole. */
export const MAX_VALUE_BYTES = 8 * 1024 * 1024;

export interface ErrorSummary {
  name: string;
  message: string;
  code?: string;
  notImplemented: boolean;
  /** Where in the student's own files it was thrown, innermost first ("checkpoint.ts:12:5"). */
  frames?: string[];
}
