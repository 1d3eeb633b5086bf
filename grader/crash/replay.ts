// Rebuilds on disk the state a crash leaves: the first `cut.at` entries of a trace done, and,
// when `cut.bytes` is set, only that many bytes of the write at `cut.at` (a torn write). The
// entries of files gone by the cut are left out (see dead-files.ts): they leave nothing on disk.
import fs from "node:fs";
import { deadFilePlan, leftOutAt } from "./dead-files.js";
import type { Cut, Trace } from "./model.js";
import { powerReplay } from "./power-loss.js";
import { inScenario } from "./trace.js";

/** Below this many entries a replay is done whole: working out which files are gone costs more than it saves. */
const WHOLE_BELOW = 64;

/**
 * Replays the trace up to `cut` into `root` (a fresh folder, or the disk an earlier crash left),
 * then closes what it opened. `deadFiles`: "leave-out" leaves out the entries of files gone by the
 * cut, "redo" redoes every entry, "auto" (the default) leaves them out in a long prefix.
 */
export function replay(trace: Trace, cut: Cut, root: string, { deadFiles = "auto" }: { deadFiles?: "auto" | "leave-out" | "redo" } = {}): void {
  if (cut.power) return powerReplay(trace, cut, cut.power, root);
  const plan = deadFiles === "redo" || (deadFiles === "auto" && cut.at < WHOLE_BELOW) ? null : deadFilePlan(trace);
  const leftOut = plan ? leftOutAt(plan, cut.at, root) : null;
  const fds = new Map<number, number>();
  const real = (stored: string) => inScenario(root, stored);
  const fdOf = (id: number) => {
    const fd = fds.get(id);
    if (fd === undefined) throw new Error(`replay: descriptor ${id} is not open`);
    return fd;
  };
  try {
    const end = Math.min(cut.at + (cut.bytes !== undefined ? 1 : 0), trace.entries.length);
    for (let i = 0; i < end; i++) {
      if (leftOut?.(i)) continue;
      const e = trace.entries[i]!;
      switch (e.kind) {
        case "mark":
        case "effect":
        case "fsync":
          break;
        case "open":
          fds.set(e.fd, fs.openSync(real(e.path), e.flags, e.mode));
          break;
        case "write": {
          // Consecutive writes to one descriptor that continue each other (appends, or each at
          // the position where the last one ended) replay as one write: a target that writes in
          // small pieces would otherwise cost one system call per piece, for every crash state.
          const pieces = [i === cut.at ? e.bytes.subarray(0, cut.bytes) : e.bytes];
          let ends = e.position === null ? null : e.position + e.bytes.byteLength;
          while (i + 1 < end) {
            const next = trace.entries[i + 1]!;
            if (next.kind !== "write" || next.fd !== e.fd || next.position !== ends) break;
            i++;
            pieces.push(i === cut.at ? next.bytes.subarray(0, cut.bytes) : next.bytes);
            if (ends !== null) ends += next.bytes.byteLength;
          }
          const bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
          fs.writeSync(fdOf(e.fd), bytes, 0, bytes.byteLength, e.position);
          break;
        }
        case "ftruncate":
          fs.ftruncateSync(fdOf(e.fd), e.length);
          break;
        case "truncate":
          fs.truncateSync(real(e.path), e.length);
          break;
        case "close":
          fs.closeSync(fdOf(e.fd));
          fds.delete(e.fd);
          break;
        case "rename":
          fs.renameSync(real(e.from), real(e.to));
          break;
        case "unlink":
          fs.unlinkSync(real(e.path));
          break;
        case "rmdir":
          fs.rmdirSync(real(e.path));
          break;
        case "mkdir":
          fs.mkdirSync(real(e.path), { mode: e.mode });
          break;
        case "symlink":
          fs.symlinkSync(real(e.target), real(e.path));
          break;
        case "link":
          fs.linkSync(real(e.from), real(e.to));
          break;
        case "attr": {
          const call = fs[e.call] as (target: string | number, ...args: number[]) => void;
          call(e.fd !== undefined ? fdOf(e.fd) : real(e.path!), ...e.args);
          break;
        }
      }
    }
  } finally {
    for (const fd of fds.values()) fs.closeSync(fd);
  }
}
