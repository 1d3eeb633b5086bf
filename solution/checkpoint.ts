// Phase 1 reference: an atomic, durable checkpoint.
//
// 1. Write the whole state to a temp file in the same folder (a rename is only atomic within one
//    file system), under a name no other writer uses (process id plus a random part).
// 2. fsync the temp file, so its bytes are on disk before any name points at them.
// 3. rename it over the checkpoint: readers see the old file or the new one, nothing between.
// 4. fsync the folder, so the rename itself survives a power cut.
// A temp file left by a crash is never read, and never blocks the next write.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { basename, dirname, join } from "node:path";

export function atomicCheckpoint(path: string, state: unknown): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const data = Buffer.from(JSON.stringify(state));
  let fd = fs.openSync(tmp, "wx", 0o644);
  try {
    // writeSync may write fewer bytes than asked: loop until every byte is written.
    for (let off = 0; off < data.length; ) off += fs.writeSync(fd, data, off, data.length - off);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = -1;
    fs.renameSync(tmp, path);
  } catch (error) {
    if (fd !== -1) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  syncFolder(dir);
}

export function loadCheckpoint<T = unknown>(path: string): T | null {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return JSON.parse(text) as T;
}

/** Makes the folder's entries (the rename) durable. */
function syncFolder(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
