// What a recording holds: the target's file-system operations and the grader's marks, in order.
// Paths inside the scenario folder are stored as "@/<relative>", so a trace replays into any folder.

/** An operation that changes, or may change, what is on disk. */
export type FsOp =
  | { kind: "open"; path: string; flags: string | number; mode?: number; fd: number; api: string }
  | { kind: "write"; fd: number; bytes: Uint8Array; position: number | null; api: string }
  | { kind: "ftruncate"; fd: number; length: number; api: string }
  | { kind: "truncate"; path: string; length: number; api: string }
  /** `failed`: the disk said no (an injected I/O error): nothing was made durable, and the data it was to sync may be lost. */
  | { kind: "fsync"; fd: number; data: boolean; failed?: boolean; api: string }
  | { kind: "close"; fd: number; api: string }
  | { kind: "rename"; from: string; to: string; api: string }
  | { kind: "unlink"; path: string; api: string }
  | { kind: "rmdir"; path: string; api: string }
  | { kind: "mkdir"; path: string; mode?: number; api: string }
  | { kind: "symlink"; target: string; path: string; api: string }
  | { kind: "link"; from: string; to: string; api: string }
  /** A change of a file's mode, owner or times: `call` is the sync function that makes it, on `path` or descriptor `fd`. */
  | { kind: "attr"; call: AttrCall; path?: string; fd?: number; args: number[]; api: string };

/** The functions that change a file's attributes, by the file they take: a path, a link itself, or a descriptor. */
export type AttrCall = "chmodSync" | "lchmodSync" | "fchmodSync" | "chownSync" | "lchownSync" | "fchownSync" | "utimesSync" | "lutimesSync" | "futimesSync";

/** What an attribute call changes, in a word: "mode", "owner" or "times". */
export function attrWord(call: AttrCall): string {
  return call.includes("chmod") ? "mode" : call.includes("chown") ? "owner" : "times";
}

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

/** True for operations whose effect a process crash can leave half done or not done. */
export function changesDisk(entry: TraceEntry): boolean {
  switch (entry.kind) {
    case "mark":
    case "effect":
    case "fsync":
    case "close":
      return false;
    case "open":
      return opensForChange(entry.flags);
    default:
      return true;
  }
}

/** True when open flags may create or truncate a file (a read-only open changes nothing). */
export function opensForChange(flags: string | number): boolean {
  if (typeof flags === "number") return (flags & 0o3) !== 0 || (flags & 0o1000) !== 0 || (flags & 0o100) !== 0;
  return flags !== "r" && flags !== "rs" && flags !== "sr";
}

/** True when open flags create the file if it is missing ("w", "a", "wx", O_CREAT). */
export function opensToCreate(flags: string | number): boolean {
  if (typeof flags === "number") return (flags & 0o100) !== 0;
  return /[wa]/.test(flags);
}

/** Returns the path relative to the scenario folder, for messages ("@/work/x" becomes "x"). */
export function displayPath(stored: string): string {
  return stored.replace(/^@\/(work\/)?/, "");
}
