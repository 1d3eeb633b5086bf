// A short listing of what a scenario left on disk, for failure messages.
import fs from "node:fs";
import path from "node:path";
import type { DiskEntry } from "../messages/host.js";

const PREVIEW_BYTES = 48;

/** Lists the files under `root/work` and `root/tmp` with their sizes and first bytes. */
export function listDisk(root: string): DiskEntry[] {
  const out: DiskEntry[] = [];
  const walk = (dir: string, shown: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = shown ? `${shown}/${name}` : name;
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) walk(full, rel);
      else if (stat.isSymbolicLink()) out.push({ path: rel, size: 0, preview: `a link to ${shownTarget(fs.readlinkSync(full), root)}` });
      else if (stat.isFile()) out.push({ path: rel, size: stat.size, preview: preview(full, stat.size) });
    }
  };
  walk(path.join(root, "work"), "");
  const tmp = path.join(root, "tmp");
  if (fs.readdirSync(tmp).length > 0) walk(tmp, "$TMPDIR");
  return out;
}

function shownTarget(target: string, root: string): string {
  return target.startsWith(path.join(root, "work") + path.sep) ? path.relative(path.join(root, "work"), target) : path.isAbsolute(target) ? "a path outside the folder" : target;
}

function preview(file: string, size: number): string {
  if (size === 0) return "";
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(Math.min(size, PREVIEW_BYTES));
    fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.toString("utf8") + (size > PREVIEW_BYTES ? "…" : "");
  } finally {
    fs.closeSync(fd);
  }
}
