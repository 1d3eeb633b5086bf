// Questions about a trace's entries: which ones change the disk, what open flags do and what they
// are called, how a stored path reads in a message. The entries' types are in model.ts.
import { constants as fsConstants } from "node:fs";
import path from "node:path";
import type { AttrCall, TraceEntry } from "./model.js";

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

/** True when open flags let the descriptor read ("r", "r+", "w+", "a+", O_RDONLY, O_RDWR). */
export function opensToRead(flags: string | number): boolean {
  if (typeof flags === "number") return (flags & 0o3) !== 0o1;
  return flags.includes("r") || flags.includes("+");
}

/** True when a file opened with these flags holds nothing of what was there before: truncated ("w", "w+", O_TRUNC), or made new ("wx", "ax", O_CREAT|O_EXCL). */
export function opensEmpty(flags: string | number): boolean {
  if (typeof flags === "number") return (flags & 0o1000) !== 0 || (flags & 0o300) === 0o300;
  return flags.startsWith("w") || (flags.startsWith("a") && flags.includes("x"));
}

/** True when open flags create the file if it is missing ("w", "a", "wx", O_CREAT). */
export function opensToCreate(flags: string | number): boolean {
  if (typeof flags === "number") return (flags & 0o100) !== 0;
  return /[wa]/.test(flags);
}

/** The open flags a message names, in the order a call usually writes them (O_SYNC before O_DSYNC, whose bit it holds). */
const FLAG_NAMES = ["O_CREAT", "O_EXCL", "O_NOCTTY", "O_TRUNC", "O_APPEND", "O_NONBLOCK", "O_SYNC", "O_DSYNC", "O_DIRECT", "O_DIRECTORY", "O_NOFOLLOW", "O_NOATIME"] as const;

/** Numeric open flags by name, as this platform's fs.constants numbers them: 577 is "O_WRONLY|O_CREAT|O_TRUNC"; a bit without a name is shown in octal. */
export function flagNames(flags: number): string {
  const c = fsConstants as Partial<Record<string, number>>;
  const access = flags & 0o3;
  const names = [access === 0 ? "O_RDONLY" : access === c.O_WRONLY ? "O_WRONLY" : access === c.O_RDWR ? "O_RDWR" : ""];
  let rest = access === 0o3 ? flags : flags & ~0o3;
  for (const name of FLAG_NAMES) {
    const bit = c[name];
    if (bit && (rest & bit) === bit) {
      names.push(name);
      rest &= ~bit;
    }
  }
  if (rest !== 0) names.push(`0o${rest.toString(8)}`);
  return names.filter(Boolean).join("|");
}

/** Where a stored path is when the scenario folder is `root` ("@/work/x" is `<root>/work/x`); a path outside the scenario stays as it is. */
export function inScenario(root: string, stored: string): string {
  return stored === "@" ? root : stored.startsWith("@/") ? path.join(root, stored.slice(2)) : stored;
}

/** Returns the path relative to the scenario folder, for messages ("@/work/x" becomes "x"). */
export function displayPath(stored: string): string {
  return stored.replace(/^@\/(work\/)?/, "");
}
