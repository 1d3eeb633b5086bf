// What a call did to the disk, as the kernel saw it (strace) and as the recording fs recorded it,
// in one shape, and the rules that decide when the two mean the same.
import { constants as c } from "node:fs";
import { flagNames } from "../../../crash/trace.js";

/** One operation, its paths relative to the case's folder. `fd` names the open a descriptor operation goes through. */
export type RawOp =
  | { kind: "open"; path: string; flags: number; mode?: number; fd: string }
  | { kind: "write"; path: string; bytes: number; position: number | null; fd: string }
  | { kind: "fsync"; path: string; data: boolean }
  | { kind: "truncate"; path: string; length: number; fd?: string }
  | { kind: "rename"; from: string; to: string }
  | { kind: "unlink" | "rmdir"; path: string }
  | { kind: "mkdir"; path: string; mode?: number }
  | { kind: "chmod"; path: string; mode: number };

/** Flags that change nothing on the disk or in the crash model: who inherits the descriptor, how it waits, how a path is followed. */
const NOISE = c.O_NOCTTY | c.O_NONBLOCK | c.O_NOFOLLOW | c.O_DIRECTORY | 0o2000000 /* O_CLOEXEC */ | 0o100000 /* O_LARGEFILE */;

/** Node's string flags as the numbers it opens with (stringToFlags in Node's lib/internal/fs/utils.js). */
const STRING_FLAGS: Record<string, number> = {
  r: c.O_RDONLY, rs: c.O_RDONLY | c.O_SYNC, sr: c.O_RDONLY | c.O_SYNC, "r+": c.O_RDWR, "rs+": c.O_RDWR | c.O_SYNC, "sr+": c.O_RDWR | c.O_SYNC,
  w: c.O_TRUNC | c.O_CREAT | c.O_WRONLY, wx: c.O_TRUNC | c.O_CREAT | c.O_WRONLY | c.O_EXCL, xw: c.O_TRUNC | c.O_CREAT | c.O_WRONLY | c.O_EXCL,
  "w+": c.O_TRUNC | c.O_CREAT | c.O_RDWR, "wx+": c.O_TRUNC | c.O_CREAT | c.O_RDWR | c.O_EXCL, "xw+": c.O_TRUNC | c.O_CREAT | c.O_RDWR | c.O_EXCL,
  a: c.O_APPEND | c.O_CREAT | c.O_WRONLY, ax: c.O_APPEND | c.O_CREAT | c.O_WRONLY | c.O_EXCL, xa: c.O_APPEND | c.O_CREAT | c.O_WRONLY | c.O_EXCL,
  as: c.O_APPEND | c.O_CREAT | c.O_WRONLY | c.O_SYNC, sa: c.O_APPEND | c.O_CREAT | c.O_WRONLY | c.O_SYNC,
  "a+": c.O_APPEND | c.O_CREAT | c.O_RDWR, "ax+": c.O_APPEND | c.O_CREAT | c.O_RDWR | c.O_EXCL, "xa+": c.O_APPEND | c.O_CREAT | c.O_RDWR | c.O_EXCL,
  "as+": c.O_APPEND | c.O_CREAT | c.O_RDWR | c.O_SYNC, "sa+": c.O_APPEND | c.O_CREAT | c.O_RDWR | c.O_SYNC,
};

export function numericFlags(flags: string | number): number {
  return typeof flags === "number" ? flags : (STRING_FLAGS[flags] ?? Number.NaN);
}

/**
 * The operations that matter, one line each, for comparing the two sides. What counts as equal:
 * - An open that neither creates nor empties a file (a read, an r+) changes nothing: left out,
 *   with every close. The descriptor's writes, fsyncs and truncations stay.
 * - Writes of nothing are left out, and a write that goes on where the last one on the same open
 *   ended is one with it: Node cuts long writes into chunks (512 KiB in promise writeFile) and
 *   loops on short ones, and the crash engine cuts every write at any byte, so one write and its
 *   pieces give the same crash states. Sizes and explicit positions are kept.
 * - An ftruncate through a descriptor and a truncate of its path are one truncation; truncateSync
 *   is an open r+, an ftruncate and a close in Node.
 * - A mode is kept as the permission bits; a missing one is Node's default (0o666, folders 0o777).
 * - A folder removed by unlinkat(AT_REMOVEDIR) or by rmdir is one rmdir.
 * - A path chmod counts only on a folder the call made (cpSync's mode for it); on a file the
 *   recorder leaves out the one that changes nothing, and strace cannot tell which that is.
 */
export function meaningOf(ops: RawOp[]): string[] {
  const out: string[] = [];
  const made = new Set<string>();
  let last: { fd: string; end: number | null; line: number; bytes: number; position: number | null } | null = null;
  for (const op of ops) {
    if (op.kind === "open" && (op.flags & (c.O_CREAT | c.O_TRUNC)) === 0) continue;
    if (op.kind === "mkdir") made.add(op.path);
    if (op.kind === "chmod" && !made.has(op.path)) continue;
    if (op.kind === "write") {
      if (op.bytes === 0) continue;
      const follows = last && last.line === out.length - 1 && last.fd === op.fd && (op.position === null ? last.end === null : last.end === op.position);
      if (follows) {
        last!.bytes += op.bytes;
        if (last!.end !== null) last!.end += op.bytes;
        out[last!.line] = writeLine(op.path, last!.bytes, last!.position);
        continue;
      }
      out.push(writeLine(op.path, op.bytes, op.position));
      last = { fd: op.fd, end: op.position === null ? null : op.position + op.bytes, line: out.length - 1, bytes: op.bytes, position: op.position };
      continue;
    }
    out.push(lineOf(op));
  }
  return out;
}

function writeLine(path: string, bytes: number, position: number | null): string {
  return `write ${path} ${bytes} bytes${position === null ? "" : ` at ${position}`}`;
}

function lineOf(op: Exclude<RawOp, { kind: "write" }>): string {
  switch (op.kind) {
    case "open": {
      const flags = flagNames(op.flags & ~NOISE);
      return `open ${op.path} ${flags}${op.flags & c.O_CREAT ? ` ${octal(op.mode ?? 0o666)}` : ""}`;
    }
    case "fsync":
      return `${op.data ? "fdatasync" : "fsync"} ${op.path}`;
    case "truncate":
      return `truncate ${op.path} to ${op.length}`;
    case "rename":
      return `rename ${op.from} ${op.to}`;
    case "mkdir":
      return `mkdir ${op.path} ${octal(op.mode ?? 0o777)}`;
    case "chmod":
      return `chmod ${op.path} ${octal(op.mode)}`;
    default:
      return `${op.kind} ${op.path}`;
  }
}

function octal(mode: number): string {
  return `0o${(mode & 0o7777).toString(8)}`;
}
