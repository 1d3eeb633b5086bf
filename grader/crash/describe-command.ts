// What a command killed part way left, in plain words: for git, its lock and the objects no ref
// points at; for any other program, what had become of each file it touched ("checkpoint.json
// had 17 of 40 bytes", ".checkpoint.json.*.tmp had been renamed to checkpoint.json"), how much
// of a file an fsync had made durable, and how far `sync` had got ("it had synced 3 of 7 files
// and folders").
import { commandSpans, type CommandSpan } from "./commands.js";
import { normaliseName } from "./names.js";
import type { Cut, Trace } from "./model.js";
import { displayPath, opensForChange } from "./trace.js";

/** "inside `cp a b`: b had 17 of 40 bytes", or "right after `mv a b` finished"; `last` is an entry of the command. */
export function commandCutPlace(trace: Trace, cut: Cut, last: number): string {
  const span = commandSpans(trace).find((s) => s.start <= last && last < s.end)!;
  if (cut.bytes === undefined && cut.at >= span.end) return `right after \`${span.command}\` finished`;
  const left = (span.git ? gitLeft(trace, span, cut.at) : "") || programLeft(trace, span, cut);
  return `inside \`${span.command}\`: ${left}`;
}

/** "it left .git/index.lock and 2 new objects that no ref points at", or "" when it left neither. */
function gitLeft(trace: Trace, span: CommandSpan, at: number): string {
  const done = trace.entries.slice(span.start, at);
  const objects = done.filter((e) => e.kind === "open" && /\.git\/objects\//.test(e.path)).length;
  const lock = done.some((e) => e.kind === "open" && e.path.endsWith(".git/index.lock"));
  const left = [lock ? ".git/index.lock" : "", objects === 0 ? "" : `${objects} new object${objects === 1 ? "" : "s"} that no ref points at`].filter(Boolean);
  return left.length === 0 ? "" : `it left ${left.join(" and ")}`;
}

/** What had become of each file the command touched before the cut, in the order it first touched them. */
function programLeft(trace: Trace, span: CommandSpan, cut: Cut): string {
  const fates = new Map<string, string>();
  const set = (p: string, fate: string) => {
    fates.delete(p);
    fates.set(p, fate);
  };
  const files = new Map<number, { path: string; written: number; of: number; synced?: number }>();
  // What `sync` makes durable it opens read-only and fsyncs, one file or folder after another.
  let synced = 0;
  const end = cut.bytes === undefined ? cut.at : cut.at + 1;
  for (let i = span.start; i < end; i++) {
    const e = trace.entries[i]!;
    switch (e.kind) {
      case "open":
        if (!opensForChange(e.flags)) break;
        files.set(e.fd, { path: e.path, written: 0, of: bytesWritten(trace, span, e.fd) });
        set(e.path, "");
        break;
      case "write": {
        const file = files.get(e.fd);
        if (file) file.written += i === cut.at && cut.bytes !== undefined ? cut.bytes : e.bytes.byteLength;
        break;
      }
      case "fsync": {
        const file = files.get(e.fd);
        if (file && !e.failed) file.synced = file.written;
        else if (!file && !e.failed) synced++;
        break;
      }
      case "rename":
        fates.delete(e.from);
        set(e.to, `${shown(e.from)} had been renamed to ${shown(e.to)}`);
        break;
      case "link":
        set(e.to, `${shown(e.to)} had been linked to ${shown(e.from)}`);
        break;
      case "symlink":
        set(e.path, `${shown(e.path)} had been made a link to ${shown(e.target)}`);
        break;
      case "unlink":
        set(e.path, `${shown(e.path)} had been removed`);
        break;
      case "rmdir":
        set(e.path, `the folder ${shown(e.path)} had been removed`);
        break;
      case "mkdir":
        set(e.path, `the folder ${shown(e.path)} had been made`);
        break;
    }
  }
  // A file being written reads as how far it got, and how much of that an fsync made durable.
  for (const file of files.values()) {
    const durable = file.synced === undefined ? "" : file.synced === file.written ? ", all synced" : `, ${file.synced} of them synced`;
    if (fates.get(file.path) === "") set(file.path, `${shown(file.path)} had ${file.written} of ${file.of} bytes${durable}`);
  }
  const parts = [...fates.values()].filter(Boolean);
  if (synced > 0) parts.push(`it had synced ${syncedCount(trace, span, synced)}`);
  if (parts.length === 0) return "it had not changed anything yet";
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** "b", or "3 of 7 files and folders": what the command's first `done` read-only fsyncs synced, of all it syncs that way. */
function syncedCount(trace: Trace, span: CommandSpan, done: number): string {
  const synced: string[] = [];
  const readOnly = new Map<number, string>();
  for (let i = span.start; i < span.end; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && !opensForChange(e.flags)) readOnly.set(e.fd, e.path);
    if (e.kind === "fsync" && readOnly.has(e.fd) && !e.failed) synced.push(readOnly.get(e.fd)!);
  }
  if (synced.length === 1 && /^@\/(work|tmp)\//.test(synced[0]!)) return shown(synced[0]!);
  return `${done} of ${synced.length} files and folders`;
}

/** All the bytes the command writes through descriptor `fd`. */
function bytesWritten(trace: Trace, span: CommandSpan, fd: number): number {
  let total = 0;
  for (let i = span.start; i < span.end; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "write" && e.fd === fd) total += e.bytes.byteLength;
  }
  return total;
}

function shown(stored: string): string {
  return normaliseName(displayPath(stored).replace(/^tmp\//, "$TMPDIR/"));
}
