// Rebuilds on disk the state a crash leaves: the first `cut.at` entries of a trace done, and,
// when `cut.bytes` is set, only that many bytes of the write at `cut.at` (a torn write).
import fs from "node:fs";
import type { Cut, Trace } from "./model.js";
import { powerReplay } from "./power-loss.js";
import { inScenario } from "./trace.js";

/** Replays the trace up to `cut` into `root` (a fresh folder), then closes what it opened. */
export function replay(trace: Trace, cut: Cut, root: string): void {
  if (cut.power) return powerReplay(trace, cut, cut.power, root);
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
          // Consecutive appends to one descriptor replay as one write: a target that writes in
          // tiny pieces would otherwise cost one system call per piece, for every crash state.
          const pieces = [i === cut.at ? e.bytes.subarray(0, cut.bytes) : e.bytes];
          while (e.position === null && i + 1 < end) {
            const next = trace.entries[i + 1]!;
            if (next.kind !== "write" || next.fd !== e.fd || next.position !== null) break;
            i++;
            pieces.push(i === cut.at ? next.bytes.subarray(0, cut.bytes) : next.bytes);
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
