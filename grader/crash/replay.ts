// Rebuilds on disk the state a crash leaves: the first `cut.at` entries of a trace done, and,
// when `cut.bytes` is set, only that many bytes of the write at `cut.at` (a torn write).
import fs from "node:fs";
import path from "node:path";
import type { Trace } from "./trace.js";

/** Where a crash lands: before entry `at`, with `bytes` of that entry's write already on disk. */
export interface Cut {
  at: number;
  bytes?: number;
}

/** Replays the trace up to `cut` into `root` (a fresh folder), then closes what it opened. */
export function replay(trace: Trace, cut: Cut, root: string): void {
  const fds = new Map<number, number>();
  const real = (p: string) => (p === "@" ? root : p.startsWith("@/") ? path.join(root, p.slice(2)) : p);
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
          const length = i === cut.at ? cut.bytes! : e.bytes.byteLength;
          fs.writeSync(fdOf(e.fd), e.bytes, 0, length, e.position);
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
          fs.symlinkSync(e.target, real(e.path));
          break;
        case "link":
          fs.linkSync(real(e.from), real(e.to));
          break;
      }
    }
  } finally {
    for (const fd of fds.values()) fs.closeSync(fd);
  }
}
