// Questions about a trace's entries: which ones change the disk, what open flags do, how a
// stored path reads in a message. The entries' types are in model.ts.
import type { AttrCall, TraceEntry } from "./model.js";

/** The trace's types, for the files that name them from here. */
export type { AttrCall, Effect, FsOp, Mark, Trace, TraceEntry } from "./model.js";

/** What an attribute call changes, in a word: "mode", "owner" or "times". */
export function attrWord(call: AttrCall): string {
  return call.includes("chmod") ? "mode" : call.includes("chown") ? "owner" : "times";
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
