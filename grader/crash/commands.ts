// Commands in a trace: a synchronous child process the target ran (git, mv, cp, ...), recorded as
// a mark "exec:<command>" followed by the operations that stand for what it changed (see
// sandbox/interposition/external-ops.ts), each with the api "exec:<command>".
import { simpleCommands } from "./command-line.js";
import type { Trace } from "./model.js";
import { standInSpans } from "./stand-in.js";
import { opensForChange } from "./trace.js";

/** The prefix of a command's mark and of its operations' api. */
export const COMMAND_PREFIX = "exec:";

/** One command's place in a trace. */
export interface CommandSpan {
  /** The command line, as the target gave it ("git commit -m \"step 1\""). */
  command: string;
  /** True for a git command, whose operations stand for what git did, not for the order it did it in. */
  git: boolean;
  /** The first operation after its mark, and one past its last operation. */
  start: number;
  end: number;
  /**
   * Where a crash inside it is placed: one past its last new object (with the index lock it took,
   * if it took one), or one past the lock when it wrote no object; undefined when it did neither.
   */
  killedInside?: number;
}

/** The commands the trace holds from entry `from` on, in order. */
export function commandSpans(trace: Trace, from = 0): CommandSpan[] {
  const spans: CommandSpan[] = [];
  const entries = trace.entries;
  for (let i = from; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.kind !== "mark" || !e.label.startsWith(COMMAND_PREFIX)) continue;
    const api = e.label;
    let end = i + 1;
    let lock: number | undefined; // the descriptor of the index lock the command took first
    let lastObject = -1;
    while (end < entries.length) {
      const op = entries[end]!;
      if (op.kind === "mark" || op.kind === "effect" || op.api !== api) break;
      if (op.kind === "open" && op.path.endsWith(".git/index.lock") && op.flags === "wx") lock ??= op.fd;
      if (op.kind === "close" && end > 0 && isObjectOpen(trace, end, op.fd)) lastObject = end;
      end++;
    }
    const killedInside = lastObject >= 0 ? lastObject + 1 : lock !== undefined ? closeOf(trace, lock, i + 1, end) : undefined;
    const command = api.slice(COMMAND_PREFIX.length);
    spans.push({ command, git: isGitCommand(command), start: i + 1, end, killedInside });
    i = end - 1;
  }
  return spans;
}

/** True when a command line (as a trace names it) runs git. */
export function isGitCommand(command: string): boolean {
  const commands = simpleCommands({ script: command, cwd: "/" });
  return commands ? commands.some((c) => c.program === "git") : /(^|[\s;&|(/])git\s/.test(command);
}

/**
 * Whether a crash may land at a point of the trace from `from` on, as far as the calls that are
 * cut only whole are concerned. A git command: before it, with its lock and new objects
 * (`killedInside`), or after it, never elsewhere inside it; its operations say what git changed,
 * not the order of its own writes (it writes refs and the index through a lock and a rename,
 * each object whole), so no other state inside it is one a killed git leaves. A stand-in's save
 * (crash/stand-in.ts): before it or after it. `bytes` set: a cut in the middle of the write at `at`.
 */
export function wholeCallsAllow(trace: Trace, from: number): (at: number, bytes?: number) => boolean {
  const spans: { start: number; end: number; killedInside?: number }[] = [...commandSpans(trace, from).filter((s) => s.git), ...standInSpans(trace, from)];
  return (at, bytes) => !spans.some((s) => (bytes === undefined ? s.start < at && at < s.end && at !== s.killedInside : s.start <= at && at < s.end));
}

/** Where a crash lands inside each git command between `from` and `to` (its lock and objects) and right after it, and right after each stand-in save. */
export function wholeCallStops(trace: Trace, from: number, to: number): number[] {
  const git = commandSpans(trace, from)
    .filter((s) => s.git && s.end <= to && s.end > s.start)
    .flatMap((s) => (s.killedInside === undefined ? [s.end] : [s.killedInside, s.end]));
  const saves = standInSpans(trace, from).filter((s) => s.end <= to && s.end > s.start).map((s) => s.end);
  return [...git, ...saves];
}

/** True for an operation that stands for part of a command. */
export function isCommandOp(entry: Trace["entries"][number]): boolean {
  return entry.kind !== "mark" && entry.kind !== "effect" && entry.api.startsWith(COMMAND_PREFIX);
}

/** True when descriptor `fd`, closed at `at`, was opened to write a file under .git/objects (a sync of one only reads it). */
function isObjectOpen(trace: Trace, at: number, fd: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && e.fd === fd) return /\.git\/objects\//.test(e.path) && opensForChange(e.flags);
  }
  return false;
}

/** One past the close of descriptor `fd` between `from` and `to` (the index lock: other programs of the line may have closed files before it). */
function closeOf(trace: Trace, fd: number, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "close" && e.fd === fd) return i + 1;
  }
  return from;
}
