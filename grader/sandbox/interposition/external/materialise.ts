// A command's steps as the system calls that make them, the ones the crash engine replays and
// cuts: a rename is one `rename`; a file written in place is opened with truncation and written
// (any prefix can be left); a new file first removes what was at its path (as `mv` across file
// systems, `cp --remove-destination` and `install` do), unless its program puts it in place
// through a temporary name and a rename (`ln -f`, `sed -i`); a sync is an open read-only, an
// fsync and a close of each file it makes durable. Null when the steps cannot be applied one by
// one in this order (a change given to the wrong program): the caller then tries another order.
import fs from "node:fs";
import path from "node:path";
import type { FsOp } from "../../../crash/trace.js";
import type { SimpleCommand } from "./command-line.js";
import type { Step } from "./order.js";
import { replacementTemp, syncedBlockSize, writesInPlace } from "./programs.js";
import type { Snapshot } from "./snapshot.js";

export interface MaterialiseOptions {
  root: string;
  before: Snapshot;
  /** The programs the steps' `by` refers to (none when the command line was not read). */
  commands: SimpleCommand[];
  api: string;
  fd: () => number;
}

/** The operations that apply `steps` to the folder `before` lists, or null when they cannot be applied in this order. */
export function materialise(steps: Step[], options: MaterialiseOptions): FsOp[] | null {
  const { root, api, fd } = options;
  const sim = new Map([...options.before].map(([p, n]) => [p, n.kind]));
  const at = (rel: string) => (rel === "" ? "@" : `@/${rel}`);
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
    return true;
  };

  for (const step of steps) {
    switch (step.kind) {
      case "mkdir":
        if (sim.has(step.path) || !parentIsDir(step.path)) return null;
        ops.push({ kind: "mkdir", path: at(step.path), mode: step.mode, api });
        sim.set(step.path, "dir");
        break;
      case "rename": {
        if (!sim.has(step.from) || !parentIsDir(step.to) || (sim.get(step.to) === "dir" && sim.get(step.from) !== "dir")) return null;
        ops.push({ kind: "rename", from: at(step.from), to: at(step.to), api });
        for (const [q, kind] of [...sim].filter(([q]) => q === step.from || q.startsWith(step.from + "/"))) sim.delete(q), sim.set(step.to + q.slice(step.from.length), kind);
        break;
      }
      case "remove": {
        const kind = sim.get(step.path);
        if (kind === undefined || [...sim.keys()].some((q) => q.startsWith(step.path + "/"))) return null;
        ops.push(kind === "dir" ? { kind: "rmdir", path: at(step.path), api } : { kind: "unlink", path: at(step.path), api });
        sim.delete(step.path);
        break;
      }
      case "write": {
        if (!parentIsDir(step.path)) return null;
        const bytes = fs.readFileSync(path.join(root, step.from));
        const block = syncedBlockSize(options.commands[step.by] ?? { program: "", args: [], outputs: [], cwd: "" });
        const write = (where: string, flags: string) => {
          const id = fd();
          ops.push({ kind: "open", path: at(where), flags, mode: step.mode, fd: id, api });
          // dd oflag=sync: each block is durable before the next is written.
          const size = block ?? Math.max(bytes.byteLength, 1);
          for (let off = 0; off < bytes.byteLength; off += size) {
            ops.push({ kind: "write", fd: id, bytes: bytes.subarray(off, off + size), position: null, api });
            if (block !== undefined) ops.push({ kind: "fsync", fd: id, data: true, api });
          }
          ops.push({ kind: "close", fd: id, api });
          sim.set(where, "file");
        };
        if (!step.fresh && writesInPlace(options.commands[step.by])) {
          if (sim.get(step.path) !== "file") return null;
          write(step.path, "w");
        } else if (!place(step.path, step.by, (where) => write(where, "wx"))) return null;
        break;
      }
      case "link":
        if (sim.get(step.from) !== "file" || !parentIsDir(step.to)) return null;
        if (!place(step.to, step.by, (where) => (ops.push({ kind: "link", from: at(step.from), to: at(where), api }), sim.set(where, "file")))) return null;
        break;
      case "symlink":
        if (!parentIsDir(step.path)) return null;
        if (!place(step.path, step.by, (where) => (ops.push({ kind: "symlink", target: step.target, path: at(where), api }), sim.set(where, "link")))) return null;
        break;
      case "sync": {
        const targets = step.paths === "all" ? ["", ...[...sim].filter(([, k]) => k !== "link").map(([p]) => p)] : step.paths.filter((p) => p === "" || (sim.has(p) && sim.get(p) !== "link"));
        for (const p of targets) {
          const id = fd();
          ops.push({ kind: "open", path: at(p), flags: "r", fd: id, api }, { kind: "fsync", fd: id, data: step.data, api }, { kind: "close", fd: id, api });
        }
        break;
      }
    }
  }
  return ops;
}
