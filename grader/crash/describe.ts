// Plain-words descriptions of crash points and of what was on disk, for failure messages.
import type { DiskEntry } from "../sandbox/messages/host.js";
import type { Cut } from "./replay.js";
import { isCommandOp } from "./commands.js";
import { describeCommandCut } from "./describe-command.js";
import { normaliseName } from "./names.js";
import { attrWord, changesDisk, displayPath, type FsOp, type Trace } from "./trace.js";

export { normaliseName } from "./names.js";

/** Says where a crash landed, as "in the middle of writeFileSync(x): 5 of 40 bytes written". */
export function describeCut(trace: Trace, cut: Cut, windowStart: number, call: string): string {
  if (cut.bytes !== undefined) {
    const op = trace.entries[cut.at] as Extract<FsOp, { kind: "write" }>;
    if (isCommandOp(op)) return describeCommandCut(trace, cut, cut.at);
    return `killed in the middle of ${op.api}(${quote(fdPath(trace, cut.at, op.fd))}): ${cut.bytes} of ${op.bytes.byteLength} bytes had reached the file`;
  }
  const last = lastChange(trace, windowStart, cut.at);
  if (last === undefined) return `killed as ${call} started, before it changed anything on disk`;
  if (isCommandOp(trace.entries[last]!)) return describeCommandCut(trace, cut, last);
  return `killed right after ${describeOp(trace, last)}`;
}

/** "writeFileSync(x) finished writing 40 bytes", "renameSync(a, b)", ... */
function describeOp(trace: Trace, index: number): string {
  const op = trace.entries[index] as FsOp;
  switch (op.kind) {
    case "open":
      return `${op.api}(${quote(displayPath(op.path))}) opened the file (flags ${JSON.stringify(op.flags)})`;
    case "write":
      return `${op.api} wrote ${op.bytes.byteLength} bytes to ${quote(fdPath(trace, index, op.fd))}`;
    case "ftruncate":
      return `${op.api} truncated ${quote(fdPath(trace, index, op.fd))} to ${op.length} bytes`;
    case "truncate":
      return `${op.api}(${quote(displayPath(op.path))}) truncated it to ${op.length} bytes`;
    case "rename":
    case "link":
      // Called by the target itself, the call says it all; inside another call (cpSync), say what it did.
      return op.api === `${op.kind}Sync`
        ? `${op.api}(${quote(displayPath(op.from))}, ${quote(displayPath(op.to))})`
        : `${op.api} ${op.kind === "rename" ? "renamed" : "linked"} ${quote(displayPath(op.from))} ${op.kind === "rename" ? "to" : "as"} ${quote(displayPath(op.to))}`;
    case "unlink":
    case "rmdir":
    case "mkdir":
      return op.api === `${op.kind}Sync`
        ? `${op.api}(${quote(displayPath(op.path))})`
        : `${op.api} ${{ unlink: "removed", rmdir: "removed the folder", mkdir: "made the folder" }[op.kind]} ${quote(displayPath(op.path))}`;
    case "symlink":
      return `${op.api}(${quote(op.target)}, ${quote(displayPath(op.path))})`;
    case "attr":
      return `${op.api}(${quote(op.path ? displayPath(op.path) : fdPath(trace, index, op.fd!))}) changed its ${attrWord(op.call)}`;
    default:
      return op.api;
  }
}

function lastChange(trace: Trace, from: number, to: number): number | undefined {
  for (let i = to - 1; i >= from; i--) {
    const e = trace.entries[i]!;
    if (changesDisk(e)) return i;
  }
  return undefined;
}

/** The path a logical descriptor was opened on, looking back from entry `index`. */
function fdPath(trace: Trace, index: number, fd: number): string {
  for (let i = index; i >= 0; i--) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && e.fd === fd) return displayPath(e.path);
  }
  return `descriptor ${fd}`;
}

/** "checkpoint.json (12 bytes: {"a":1,...), checkpoint.json.tmp (0 bytes)" or "no files". */
export function describeDisk(disk: DiskEntry[]): string {
  if (disk.length === 0) return "no files";
  return disk
    .map((f) => (f.preview.startsWith("a link to ") && f.size === 0 ? `${normaliseName(f.path)} (${f.preview})` : `${normaliseName(f.path)} (${f.size} byte${f.size === 1 ? "" : "s"}${f.size ? `: ${JSON.stringify(f.preview)}` : ""})`))
    .join(", ");
}

function quote(p: string): string {
  return JSON.stringify(normaliseName(p));
}
