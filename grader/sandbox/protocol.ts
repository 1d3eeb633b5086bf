// The messages between the grader and a sandbox host process (one request, one reply).
import type { Cut } from "../crash/replay.js";
import type { Trace } from "../crash/trace.js";

/** A value passed to a target function; `{ $path: "work/x" }` becomes a path in the scenario folder. */
export type Arg = unknown;

/** One step of a scenario, run in order inside one host. */
export type Step =
  | { call: string; args: Arg[] }
  | { fresh: true }
  | { mark: string }
  /** The grader puts a file in place (recorded like the target's writes, so crash states keep it). */
  | { put: string; content: string };

/** What one call into the target did, as the grader sees it from the outside. */
export type CallResult =
  | { status: "returned"; value: ValueSummary }
  | { status: "threw"; error: ErrorSummary }
  | { status: "exited"; detail: string }
  | { status: "missing"; detail: string }
  | { status: "import-failed"; error: ErrorSummary };

export interface ValueSummary {
  /** Digest of the canonical JSON, or null when the value was `undefined` or not JSON. */
  digest: string | null;
  /** The start of the canonical JSON, for messages. */
  preview: string;
  isNull: boolean;
}

export interface ErrorSummary {
  name: string;
  message: string;
  code?: string;
  notImplemented: boolean;
}

/** A file left in the scenario folder, for messages. */
export interface DiskEntry {
  path: string;
  size: number;
  preview: string;
}

export interface Scenario {
  /** Start from the state a crash left in another recording; otherwise from empty folders. */
  from?: { traceId: string; cut: Cut };
  steps: Step[];
}

export type Request =
  | { type: "run"; module: string; scenario: Scenario; record: boolean; listDisk: boolean }
  | { type: "runMany"; module: string; traceId: string; cuts: Cut[]; steps: Step[] }
  | { type: "putTrace"; traceId: string; trace: Trace }
  | { type: "ping" };

export interface RunReply {
  results: CallResult[];
  trace?: Trace;
  disk?: DiskEntry[];
}

export type Reply =
  | { ok: true; value: unknown }
  | { ok: false; needTrace?: string; error: string };
