// Plain-words descriptions of crash points and of what was on disk, for failure messages.
import { COMMAND_PREFIX, isCommandOp } from "./commands.js";
import { commandCutPlace } from "./describe-command.js";
import type { Cut, DiskEntry, FsOp, Trace } from "./model.js";
import { normaliseName } from "./names.js";
import { isStandInOp } from "./stand-in.js";
import { attrWord, changesDisk, displayPath, flagNames } from "./trace.js";

export { normaliseName } from "./names.js";

/** Whether the target made this operation by calling it by name (`renameSync`, `rename`, `fs.promises.rename`), not inside another call (cpSync). */
function calledItself(op: FsOp): boolean {
  return [`${op.kind}Sync`, op.kind, `fs.promises.${op.kind}`].includes(op.api);
}

/**
 * Says how a crash landed: `interruption` ("killed", "interrupted by a power cut") and where
 * (cutPlace), as "killed in the middle of writeFileSync(x): 5 of 40 bytes had reached the file".
 */
export function describeCut(trace: Trace, cut: Cut, windowStart: number, { call, interruption = "killed" }: { call: string; interruption?: string }): string {
  return `${interruption} ${cutPlace(trace, cut, windowStart, { call })}`;
}

/**
 * Where a crash landed in the window from `windowStart`: "in the middle of writeFileSync(x): ...",
 * "right after renameSync(a, b)", "inside `git commit`: ...", or before anything changed on disk
 * ("as `call` started, before it changed anything on disk"; without a call, "before it changed
 * anything on disk").
 */
export function cutPlace(trace: Trace, cut: Cut, windowStart: number, { call }: { call?: string } = {}): string {
  if (cut.bytes !== undefined) {
    const op = trace.entries[cut.at] as Extract<FsOp, { kind: "write" }>;
    if (isCommandOp(op)) return commandCutPlace(trace, cut, cut.at);
    return `in the middle of ${op.api}(${quote(fdPath(trace, cut.at, op.fd))}): ${cut.bytes} of ${op.bytes.byteLength} bytes had reached the file`;
  }
  // Right after an operation of a command the target ran, the crash is inside that command (or right after it).
  const previous = cut.at - 1 >= windowStart ? trace.entries[cut.at - 1] : undefined;
  if (previous && isCommandOp(previous)) return commandCutPlace(trace, cut, cut.at - 1);
  const last = lastPoint(trace, windowStart, cut.at);
  if (last === undefined) return `${call === undefined ? "" : `as ${call} started, `}before it changed anything on disk`;
  if (isCommandOp(trace.entries[last]!)) return commandCutPlace(trace, cut, last);
  if (isStandInOp(trace.entries[last]!)) return `right after the grader's stand-in for atomicCheckpoint saved ${quote(savedBy(trace, last))}`;
  return `right after ${describeOp(trace, last)}`;
}

/** The file a stand-in's save wrote, from the open of the save that holds entry `index`. */
function savedBy(trace: Trace, index: number): string {
  for (let i = index; i >= 0 && isStandInOp(trace.entries[i]!); i--) {
    const e = trace.entries[i]!;
    if (e.kind === "open") return displayPath(e.path);
  }
  return "its file";
}

/** "writeSync wrote 40 bytes to x", "fsyncSync synced x", "renameSync(a, b)", ... */
function describeOp(trace: Trace, index: number): string {
  const op = trace.entries[index] as FsOp;
  switch (op.kind) {
    case "open":
      return `${op.api}(${quote(displayPath(op.path))}) opened the file (flags ${typeof op.flags === "number" ? flagNames(op.flags) : JSON.stringify(op.flags)})`;
    case "write":
      return `${op.api} wrote ${op.bytes.byteLength} bytes to ${quote(fdPath(trace, index, op.fd))}`;
    case "fsync": {
      // The work folder reads as "the folder", as the other messages call it; anything else by its name.
      const what = openedOn(trace, index, op.fd) === "@/work" ? "the folder" : quote(fdPath(trace, index, op.fd));
      return op.failed ? `${op.api} failed to sync ${what}` : `${op.api} synced ${what}`;
    }
    case "ftruncate":
      return `${op.api} truncated ${quote(fdPath(trace, index, op.fd))} to ${op.length} bytes`;
    case "truncate":
      return `${op.api}(${quote(displayPath(op.path))}) truncated it to ${op.length} bytes`;
    case "rename":
    case "link":
      // Called by the target itself, the call says it all; inside another call (cpSync), say what it did.
      return calledItself(op)
        ? `${op.api}(${quote(displayPath(op.from))}, ${quote(displayPath(op.to))})`
        : `${op.api} ${op.kind === "rename" ? "renamed" : "linked"} ${quote(displayPath(op.from))} ${op.kind === "rename" ? "to" : "as"} ${quote(displayPath(op.to))}`;
    case "unlink":
    case "rmdir":
    case "mkdir":
      // A recursive mkdirSync makes each missing folder in turn: the call the target made, and the folder it had got to.
      if (op.kind === "mkdir" && calledItself(op) && op.recursive !== undefined) {
        const called = `${op.api}(${quote(displayPath(op.recursive))}, {recursive: true})`;
        return op.path === op.recursive ? called : `${called} made the folder ${quote(displayPath(op.path))}`;
      }
      return calledItself(op)
        ? `${op.api}(${quote(displayPath(op.path))})`
        : `${op.api} ${{ unlink: "removed", rmdir: "removed the folder", mkdir: "made the folder" }[op.kind]} ${quote(displayPath(op.path))}`;
    case "symlink":
      // A target inside the scenario folder is stored as "@/work/x": it reads as the other paths do.
      return calledItself(op)
        ? `${op.api}(${quote(displayPath(op.target))}, ${quote(displayPath(op.path))})`
        : `${op.api} made ${quote(displayPath(op.path))} a link to ${quote(displayPath(op.target))}`;
    case "attr":
      return `${op.api}(${quote(op.path ? displayPath(op.path) : fdPath(trace, index, op.fd!))}) changed its ${attrWord(op.call)}`;
    default:
      return op.api;
  }
}

/**
 * A call as a picture labels it: its function and the file it named ("writeSync(\"x.tmp\")",
 * "renameSync(\"x.tmp\", \"x\")"); a part of a larger call says which ("writeFileSync(\"x\"): open").
 */
export function opLabel(trace: Trace, index: number): string {
  const op = trace.entries[index] as FsOp;
  // What a program the target ran did, as the command it ran: "`cp a b`: open \"b\"".
  if (isCommandOp(op)) return `\`${op.api.slice(COMMAND_PREFIX.length)}\`: ${callLabel(trace, index, { ...op, api: op.kind === "attr" ? attrWord(op.call) : op.kind } as FsOp).replace(/^(\w+)\((.*)\)$/, "$1 $2")}`;
  const label = callLabel(trace, index, op);
  return op.api.toLowerCase().startsWith(op.kind) ? label : `${label}: ${op.kind === "attr" ? attrWord(op.call) : op.kind}`;
}

/**
 * An operation as data, beside its label: the kind of file-system call it is ("open", "write",
 * "rename", an attribute call by its word) and the file it touched as the label names it ("the
 * folder" for the scenario's folder; for a rename or a link, the name it made; for a symlink, the
 * link), unquoted. What a class's failures are grouped by, never read back from the label.
 */
export function opFacts(trace: Trace, index: number): { kind: string; touched: string } {
  const op = trace.entries[index] as FsOp;
  const kind = op.kind === "attr" ? attrWord(op.call) : op.kind;
  // Spelt as the label spells it: a temp name's process id and random part hidden, the same from grade to grade.
  return { kind, touched: normaliseName(touchedBy(trace, index, op)) };
}

/** The file an operation touched, as opFacts names it, before its name is normalised. */
function touchedBy(trace: Trace, index: number, op: FsOp): string {
  switch (op.kind) {
    case "write":
    case "fsync":
    case "ftruncate":
    case "close":
      return openedOn(trace, index, op.fd) === "@/work" ? "the folder" : fdPath(trace, index, op.fd);
    case "rename":
    case "link":
      return displayPath(op.to);
    case "symlink":
      return displayPath(op.path);
    case "attr":
      return op.path ? displayPath(op.path) : fdPath(trace, index, op.fd!);
    default:
      return /^@\/work\/?$/.test(op.path) ? "the folder" : displayPath(op.path);
  }
}

function callLabel(trace: Trace, index: number, op: FsOp): string {
  switch (op.kind) {
    case "write":
    case "fsync":
    case "ftruncate":
    case "close":
      // The work folder reads as "the folder", as the stories call it.
      return openedOn(trace, index, op.fd) === "@/work" ? `${op.api}(the folder)` : `${op.api}(${quote(fdPath(trace, index, op.fd))})`;
    case "rename":
    case "link":
      return `${op.api}(${quote(displayPath(op.from))}, ${quote(displayPath(op.to))})`;
    case "symlink":
      return `${op.api}(${quote(displayPath(op.target))}, ${quote(displayPath(op.path))})`;
    case "attr":
      return `${op.api}(${quote(op.path ? displayPath(op.path) : fdPath(trace, index, op.fd!))})`;
    default:
      // The work folder opened (to fsync it) reads as "the folder" too: "work" is the grader's name.
      return `${op.api}(${/^@\/work\/?$/.test(op.path) ? "the folder" : quote(displayPath(op.path))})`;
  }
}

/** The last entry before `to` (from `from` on) that changed the disk or was an fsync: a power cut right after an fsync is not one right before it. */
function lastPoint(trace: Trace, from: number, to: number): number | undefined {
  for (let i = to - 1; i >= from; i--) {
    const e = trace.entries[i]!;
    if (changesDisk(e) || e.kind === "fsync") return i;
  }
  return undefined;
}

/** The path a logical descriptor was opened on, looking back from entry `index`, as a message shows it. */
function fdPath(trace: Trace, index: number, fd: number): string {
  const stored = openedOn(trace, index, fd);
  return stored === undefined ? `descriptor ${fd}` : displayPath(stored);
}

/** The path a logical descriptor was opened on, as the trace stores it ("@/work/x"). */
function openedOn(trace: Trace, index: number, fd: number): string | undefined {
  for (let i = index; i >= 0; i--) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && e.fd === fd) return e.path;
  }
  return undefined;
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
