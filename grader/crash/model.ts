// The crash engine's model, its types alone: what a recording holds (the target's file-system
// operations and the grader's marks, in order), where a crash lands in it, what a power cut does
// with what was not yet durable, and what a message shows of the disk. Paths inside the scenario
// folder are stored as "@/<relative>", so a trace replays into any folder. This file imports
// nothing: the rest of the crash engine, the sandbox that records traces and the checks build on it.

/** An operation that changes, or may change, what is on disk. */
export type FsOp =
  | { kind: "open"; path: string; flags: string | number; mode?: number; fd: number; api: string }
  /** `flushIgnored`: the Node version whose writeFileSync made this write, was asked to flush, and made no fsync (sandbox/interposition/node-quirks.ts). */
  | { kind: "write"; fd: number; bytes: Uint8Array; position: number | null; api: string; flushIgnored?: string }
  | { kind: "ftruncate"; fd: number; length: number; api: string }
  | { kind: "truncate"; path: string; length: number; api: string }
  /** `failed`: the disk said no (an injected I/O error): nothing was made durable, and the data it was to sync may be lost. */
  | { kind: "fsync"; fd: number; data: boolean; failed?: boolean; api: string }
  | { kind: "close"; fd: number; api: string }
  | { kind: "rename"; from: string; to: string; api: string }
  | { kind: "unlink"; path: string; api: string }
  | { kind: "rmdir"; path: string; api: string }
  /** `recursive`: this folder is one of those a recursive mkdir makes, and that call was given this path. */
  | { kind: "mkdir"; path: string; mode?: number; recursive?: string; api: string }
  | { kind: "symlink"; target: string; path: string; api: string }
  | { kind: "link"; from: string; to: string; api: string }
  /** A change of a file's mode, owner or times: `call` is the sync function that makes it, on `path` or descriptor `fd`. */
  | { kind: "attr"; call: AttrCall; path?: string; fd?: number; args: number[]; api: string };

/** The functions that change a file's attributes, by the file they take: a path, a link itself, or a descriptor. */
export type AttrCall = "chmodSync" | "lchmodSync" | "fchmodSync" | "chownSync" | "lchownSync" | "fchownSync" | "utimesSync" | "lutimesSync" | "futimesSync";

/** A mark the grader places in the trace: a call into the target starts or ends. */
export type Mark = { kind: "mark"; label: string };

/** A side effect of the lab task: runStep(step) was entered, or its side effect was performed. */
export type Effect = { kind: "effect"; step: number; pid: number; phase: "enter" | "done"; input: string; output?: string };

export type TraceEntry = FsOp | Mark | Effect;

export interface Trace {
  entries: TraceEntry[];
  /** True when the target made more operations than the recorder keeps. */
  truncated: boolean;
}

/**
 * Where a crash lands: before entry `at`, with `bytes` of that entry's write already on disk.
 * With `power`, it is a power cut, and what was not yet durable went the policy's way.
 */
export interface Cut {
  at: number;
  bytes?: number;
  power?: PowerPolicy;
}

/** What became of what was not yet durable at the power cut. */
export interface PowerPolicy {
  /** Everything done before this entry is durable (an old checkpoint written long before). */
  settled?: number;
  /** Unsynced file data: all lost, the first half of the file's new content kept, or all kept. */
  data: "lost" | "partial" | "kept";
  /** Unsynced directory entries: lost (the folder as of its last fsync), or kept. */
  names: "lost" | "kept";
}

/** A file left in the scenario folder, for messages. */
export interface DiskEntry {
  path: string;
  size: number;
  preview: string;
}
