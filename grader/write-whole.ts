// A file written whole or not at all: the text goes to a file of this thread's own beside it, which
// is then renamed over the name. A reader of the name sees the old file or the new one, never half
// of one (two workers bundle the same module to one name; a verdict is read while the next one is
// posted); a link planted at the name is replaced, never followed; and a file someone holds open
// is not the one written.
import fs from "node:fs";
import { threadId } from "node:worker_threads";

/**
 * Writes `data` to `file` whole (its folder must exist), readable by this user alone when `mode` is
 * 0o600. With `ifAbsent`, only where no file has the name: linked into place, which fails on a
 * name taken, so of writers racing to make a file the first one wins; false when one was there.
 */
export function writeWhole(file: string, data: string | Uint8Array, opts: { mode?: number; ifAbsent?: boolean } = {}): boolean {
  const own = `${file}.${process.pid}-${threadId}.tmp`;
  // Left by a process of the same pid that was killed: removed, then made anew (wx never follows a link there).
  fs.rmSync(own, { force: true });
  fs.writeFileSync(own, data, { flag: "wx", ...(opts.mode === undefined ? {} : { mode: opts.mode }) });
  if (!opts.ifAbsent) {
    fs.renameSync(own, file);
    return true;
  }
  try {
    fs.linkSync(own, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  } finally {
    fs.rmSync(own, { force: true });
  }
}
