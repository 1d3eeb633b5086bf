// A listing of the scenario folder taken before and after a command, and between the programs of
// a shell line (see probe.ts): what each path is, which file it is (device, inode and birth time: a
// rename keeps them, a new file gets new ones) and, on request, a digest of its content (a command
// may touch a file without changing what it holds).
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

/** The name every probe folder in a scenario folder starts with (probe.ts): no listing holds one. */
export const PROBE_FOLDER_PREFIX = ".between-programs-";

/**
 * Every file, folder and link below `root` (links are not followed, except the scenario's own
 * `tmp`, which may be a link to a folder on another file system), by path relative to it. A FIFO,
 * a socket or a device is left out: no operation replays one, and reading a FIFO would block.
 */
export function snapshot(root: string, options: { digests?: boolean } = {}): Snapshot {
  return new Map(listFolder({ fs, path, createHash }, root, options.digests ?? false, PROBE_FOLDER_PREFIX));
}

/** The modules `listFolder` uses, passed in so that it needs nothing from around it. */
interface ListingModules {
  fs: typeof fs;
  path: typeof path;
  createHash: typeof createHash;
}

/**
 * The listing itself, as [path, node] pairs. It uses nothing but its arguments: a probe runs its
 * very source in a process of its own (`LIST_FOLDER_SOURCE`), so the listings taken between a
 * line's programs and the ones taken around it cannot come to differ.
 */
function listFolder(modules: ListingModules, root: string, digests: boolean, skipPrefix: string): [string, SnapshotNode][] {
  const { fs, path, createHash } = modules;
  const nodes: [string, SnapshotNode][] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!rel && entry.name.startsWith(skipPrefix)) continue;
      const abs = path.join(dir, entry.name);
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      const st = key === "tmp" ? fs.statSync(abs, { bigint: true }) : fs.lstatSync(abs, { bigint: true });
      // The birth time tells a new file from an old one that had the same inode number, when the file system reuses them.
      const id = `${st.dev}:${st.ino}:${st.birthtimeNs}`;
      const mode = Number(st.mode & 0o7777n);
      if (st.isSymbolicLink()) nodes.push([key, { kind: "link", sig: fs.readlinkSync(abs), mode: 0, id }]);
      else if (st.isDirectory()) {
        nodes.push([key, { kind: "dir", sig: "", mode, id }]);
        walk(abs, key);
      } else if (st.isFile()) {
        const digest = digests ? createHash("sha1").update(fs.readFileSync(abs)).digest("hex") : undefined;
        nodes.push([key, { kind: "file", sig: `${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}`, mode, id, digest }]);
      }
    }
  };
  walk(root, "");
  return nodes;
}

/** `listFolder`'s source, a function of (modules, root, digests, skipPrefix), for a probe to run. */
export const LIST_FOLDER_SOURCE = listFolder.toString();
