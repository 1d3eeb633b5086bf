// Commands in a trace: a synchronous child process the target ran (git), recorded as a mark
// "exec:<command>" followed by the operations that stand for what it changed (see
// sandbox/external-ops.ts), each with the api "exec:<command>".
import type { Trace } from "./trace.js";

/** The prefix of a command's mark and of its operations' api. */
export const COMMAND_PREFIX = "exec:";

/** One command's place in a trace. */
export interface CommandSpan {
  /** The command line, as the target gave it ("git commit -m \"step 1\""). */
  command: string;
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
    let lock = false;
    let lastObject = -1;
    while (end < entries.length) {
      const op = entries[end]!;
      if (op.kind === "mark" || op.kind === "effect" || op.api !== api) break;
      if (op.kind === "open" && op.path.endsWith(".git/index.lock") && op.flags === "wx") lock = true;
      if (op.kind === "close" && end > 0 && isObjectOpen(trace, end, op.fd)) lastObject = end;
      end++;
    }
    const killedInside = lastObject >= 0 ? lastObject + 1 : lock ? firstLockEnd(trace, i + 1, end) : undefined;
    spans.push({ command: api.slice(COMMAND_PREFIX.length), start: i + 1, end, killedInside });
    i = end - 1;
  }
  return spans;
}

/** True for an operation that stands for part of a command. */
export function isCommandOp(entry: Trace["entries"][number]): boolean {
  return entry.kind !== "mark" && entry.kind !== "effect" && entry.api.startsWith(COMMAND_PREFIX);
}

/** True when descriptor `fd`, closed at `at`, was opened on a file under .git/objects. */
function isObjectOpen(trace: Trace, at: number, fd: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && e.fd === fd) return /\.git\/objects\//.test(e.path);
  }
  return false;
}

/** One past the close of the index lock the command created (between `from` and `to`). */
function firstLockEnd(trace: Trace, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "close") return i + 1;
  }
  return from;
}
