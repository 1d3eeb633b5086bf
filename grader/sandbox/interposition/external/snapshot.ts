// A listing of the scenario folder taken before and after a command: what each path is, which
// file it is (device, inode and birth time: a rename keeps them, a new file gets new ones) and, on request,
// a digest of its content (a command may touch a file without changing what it holds).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** A file, folder or link at one path. */
export interface SnapshotNode {
  kind: "file" | "dir" | "link";
  /** For a file: inode, size and change times, so a rewritten file is seen; for a link: its target. */
  sig: string;
  mode: number;
  /** Which file or folder it is: device, inode and birth time. */
  id: string;
  /** A digest of a file's content, when the snapshot was taken with `digests`. */
  digest?: string;
}

/** Every path below a scenario folder, relative to it ("work/checkpoint.json"). */
export type Snapshot = Map<string, SnapshotNode>;

/**
 * Every file, folder and link below `root` (links are not followed, except the scenario's own
 * `tmp`, which may be a link to a folder on another file system), by path relative to it. A FIFO,
 * a socket or a device is left out: no operation replays one, and reading a FIFO would block.
 */
export function snapshot(root: string, options: { digests?: boolean } = {}): Snapshot {
  const nodes: Snapshot = new Map();
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      const st = key === "tmp" ? fs.statSync(abs, { bigint: true }) : fs.lstatSync(abs, { bigint: true });
      // The birth time tells a new file from an old one that had the same inode number, when the file system reuses them.
      const id = `${st.dev}:${st.ino}:${st.birthtimeNs}`;
      const mode = Number(st.mode & 0o7777n);
      if (st.isSymbolicLink()) nodes.set(key, { kind: "link", sig: fs.readlinkSync(abs), mode: 0, id });
      else if (st.isDirectory()) {
        nodes.set(key, { kind: "dir", sig: "", mode, id });
        walk(abs, key);
      } else if (st.isFile()) {
        const digest = options.digests ? createHash("sha1").update(fs.readFileSync(abs)).digest("hex") : undefined;
        nodes.set(key, { kind: "file", sig: `${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}`, mode, id, digest });
      }
    }
  };
  walk(root, "");
  return nodes;
}
