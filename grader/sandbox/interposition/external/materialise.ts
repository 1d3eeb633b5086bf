// A command's actions as the system calls that make them, the ones the crash engine replays and
// cuts: a rename is one `rename`; a file written in place is opened with truncation and written
// (any prefix can be left); a new file first removes what was at its path (as `mv` across file
// systems, `cp --remove-destination` and `install` do), unless its program puts it in place
// through a temporary name and a rename (`ln -f`, `sed -i`); a sync is an open read-only, an
// fsync and a close of each file it makes durable. Null when the actions cannot be applied one by
// one in this order (a change given to the wrong program): the caller then tries another order.
import path from "node:path";
import type { FsOp } from "../../../crash/model.js";
import type { SimpleCommand } from "../../../crash/command-line.js";
import { relativeTo } from "./command-label.js";
import type { ProgramAction } from "./order.js";
import { replacementTemp, syncedBlockSize, writesInPlace } from "./programs.js";
import type { Snapshot } from "./snapshot.js";

export interface MaterialiseOptions {
  /** The scenario folder: a link's absolute target inside it is stored as "@/...". */
  root: string;
  before: Snapshot;
  /** The programs the actions' `by` refers to (none when the command line was not read). */
  commands: SimpleCommand[];
  api: string;
  fd: () => number;
  /** What a file (by path relative to the scenario folder) held after the actions. */
  read: (rel: string) => Buffer;
}

/** The operations that apply `actions` to the folder `before` lists, or null when they cannot be applied in this order. */
export function materialise(actions: ProgramAction[], options: MaterialiseOptions): FsOp[] | null {
  const { root, api, fd } = options;
  const sim = new Map([...options.before].map(([p, n]) => [p, n.kind]));
  const at = (rel: string) => (rel === "" ? "@" : `@/${rel}`);
  // A link's target inside the scenario folder is stored as its paths are, so the trace replays into any folder.
  const relative = relativeTo(root);
  const linkTarget = (target: string) => {
    const rel = path.isAbsolute(target) ? relative(target) : undefined;
    return rel === undefined ? target : at(rel);
  };
  const parentIsDir = (p: string) => path.posix.dirname(p) === "." || sim.get(path.posix.dirname(p)) === "dir";
  const ops: FsOp[] = [];
  const clear = (p: string): boolean => {
    const kind = sim.get(p);
    if (kind === undefined) return true;
    if (kind === "dir") return false;
    ops.push({ kind: "unlink", path: at(p), api });
    sim.delete(p);
    return true;
  };
  /** Puts something at `p`: through the program's temporary name and a rename when it has one and `p` is taken, else after removing what is there. */
  const place = (p: string, by: number, make: (where: string) => void): boolean => {
    const temp = sim.has(p) ? replacementTemp(options.commands[by]) : undefined;
    if (temp === undefined) {
      if (!clear(p)) return false;
      make(p);
      return true;
    }
    const where = path.posix.join(path.posix.dirname(p), temp);
    if (sim.has(where) || sim.get(p) === "dir") return false;
    make(where);
    ops.push({ kind: "rename", from: at(where), to: at(p), api });
    // The temporary name is gone: a later sync or a second such program must not find it.
    sim.set(p, sim.get(where)!);
    sim.delete(where);
    return true;
  };

  for (const action of actions) {
    switch (action.kind) {
      case "mkdir":
        if (sim.has(action.path) || !parentIsDir(action.path)) return null;
        ops.push({ kind: "mkdir", path: at(action.path), mode: action.mode, api });
        sim.set(action.path, "dir");
        break;
      case "rename": {
        if (!sim.has(action.from) || !parentIsDir(action.to) || (sim.get(action.to) === "dir" && sim.get(action.from) !== "dir")) return null;
        ops.push({ kind: "rename", from: at(action.from), to: at(action.to), api });
        for (const [q, kind] of [...sim].filter(([q]) => q === action.from || q.startsWith(action.from + "/"))) sim.delete(q), sim.set(action.to + q.slice(action.from.length), kind);
        break;
      }
      case "remove": {
        const kind = sim.get(action.path);
        if (kind === undefined || [...sim.keys()].some((q) => q.startsWith(action.path + "/"))) return null;
        ops.push(kind === "dir" ? { kind: "rmdir", path: at(action.path), api } : { kind: "unlink", path: at(action.path), api });
        sim.delete(action.path);
        break;
      }
      case "write": {
        if (!parentIsDir(action.path)) return null;
        const bytes = options.read(action.from);
        const block = syncedBlockSize(options.commands[action.by] ?? { program: "", args: [], outputs: [], cwd: "" });
        const write = (where: string, flags: string) => {
          const id = fd();
          ops.push({ kind: "open", path: at(where), flags, mode: action.mode, fd: id, api });
          // dd oflag=sync: each block is durable before the next is written.
          const size = block ?? Math.max(bytes.byteLength, 1);
          for (let off = 0; off < bytes.byteLength; off += size) {
            ops.push({ kind: "write", fd: id, bytes: bytes.subarray(off, off + size), position: null, api });
            if (block !== undefined) ops.push({ kind: "fsync", fd: id, data: true, api });
          }
          ops.push({ kind: "close", fd: id, api });
          sim.set(where, "file");
        };
        if (!action.fresh && writesInPlace(options.commands[action.by])) {
          if (sim.get(action.path) !== "file") return null;
          write(action.path, "w");
        } else if (!place(action.path, action.by, (where) => write(where, "wx"))) return null;
        break;
      }
      case "link":
        if (sim.get(action.from) !== "file" || !parentIsDir(action.to)) return null;
        if (!place(action.to, action.by, (where) => (ops.push({ kind: "link", from: at(action.from), to: at(where), api }), sim.set(where, "file")))) return null;
        break;
      case "symlink":
        if (!parentIsDir(action.path)) return null;
        if (!place(action.path, action.by, (where) => (ops.push({ kind: "symlink", target: linkTarget(action.target), path: at(where), api }), sim.set(where, "link")))) return null;
        break;
      case "sync": {
        const targets = action.paths === "all" ? ["", ...[...sim].filter(([, k]) => k !== "link").map(([p]) => p)] : action.paths.filter((p) => p === "" || (sim.has(p) && sim.get(p) !== "link"));
        for (const p of targets) {
          const id = fd();
          ops.push({ kind: "open", path: at(p), flags: "r", fd: id, api }, { kind: "fsync", fd: id, data: action.data, api }, { kind: "close", fd: id, api });
        }
        break;
      }
    }
  }
  return ops;
}
