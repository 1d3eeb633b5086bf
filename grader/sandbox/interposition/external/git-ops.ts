// What a git command did to the scenario folder, as the operations that turn the folder before
// it into the folder after it, in the order git itself works, so a crash can be placed inside it:
//   1. it takes the index lock (creates `.git/index.lock`) when it writes the index, or objects
//      and a ref (as git add, git commit and git reset do; git hash-object does not);
//   2. it writes its new objects (`.git/objects/..`), each file whole;
//   3. it changes other files: the work tree, then `.git` files, refs last;
//   4. it puts the new index in place (renames the lock over `.git/index`), or drops the lock;
//   5. it removes what it removed.
// A crash after step 2 leaves what a killed `git commit` leaves: the lock and objects no ref
// points at. Each op's `api` is "exec:<command>", so messages can name the command.
import fs from "node:fs";
import path from "node:path";
import type { FsOp } from "../../../crash/trace.js";
import type { Snapshot, SnapshotNode } from "./snapshot.js";

/** The operations from `before` to `after` (both snapshots of `root`), named `api`; `fd()` gives each open a descriptor id. */
export function gitOps(root: string, before: Snapshot, after: Snapshot, api: string, fd: () => number): FsOp[] {
  const at = (rel: string) => `@/${rel}`;
  const changed = [...after].filter(([p, n]) => {
    const old = before.get(p);
    return !old || old.kind !== n.kind || old.sig !== n.sig || (n.kind !== "dir" && old.mode !== n.mode);
  });
  const removed = [...before.keys()].filter((p) => !after.has(p) || after.get(p)!.kind !== before.get(p)!.kind);
  const ops: FsOp[] = [];
  const writeFile = (rel: string, to: string, flags: string, mode: number) => {
    const id = fd();
    ops.push({ kind: "open", path: at(to), flags, mode, fd: id, api });
    ops.push({ kind: "write", fd: id, bytes: fs.readFileSync(path.join(root, rel)), position: null, api });
    ops.push({ kind: "close", fd: id, api });
  };

  // A path whose kind changed goes first, so its new kind can be made.
  for (const p of removed.filter((p) => after.has(p)).sort(deepestFirst)) ops.push(removal(at(p), before.get(p)!.kind, api));
  const files = changed.filter(([, n]) => n.kind !== "dir");
  const isObject = (p: string) => /(^|\/)\.git\/objects\//.test(p);
  const indexes = files.filter(([p]) => /(^|\/)\.git\/index$/.test(p)).map(([p]) => p);
  // Objects are named by their content: one that was there already is the same (git may touch it
  // to keep it fresh), so only new ones are written.
  const objects = files.filter(([p]) => isObject(p) && !before.has(p));
  // 1. The index lock, for a command that writes the index, or objects and a ref (git commit
  //    holds it even when the index does not change), and did not find one there.
  const locks = new Set<string>();
  const refs = files.filter(([p]) => /\.git\/(refs\/|HEAD$|packed-refs$)/.test(p)).map(([p]) => gitDirOf(p));
  const objectsAndRef = objects.map(([p]) => gitDirOf(p)).filter((d) => refs.includes(d));
  for (const gitDir of new Set([...indexes.map(gitDirOf), ...objectsAndRef])) {
    const lock = `${gitDir}/index.lock`;
    if (before.has(lock) || after.has(lock)) continue;
    locks.add(gitDir);
    const id = fd();
    ops.push({ kind: "open", path: at(lock), flags: "wx", mode: 0o644, fd: id, api }, { kind: "close", fd: id, api });
  }
  // 2. New folders, parents first, then the objects.
  for (const [p, n] of changed.filter(([, n]) => n.kind === "dir").sort(([a], [b]) => a.localeCompare(b))) ops.push({ kind: "mkdir", path: at(p), mode: n.mode, api });
  for (const [p, n] of objects) writeFile(p, p, "wx", n.mode);
  // 3. Everything else: the work tree, then .git's own files, refs and HEAD last.
  const rank = (p: string) => (!p.includes(".git/") ? 0 : /\.git\/(refs\/|HEAD$|packed-refs$)/.test(p) ? 2 : 1);
  const others = files.filter(([p]) => !isObject(p) && !indexes.includes(p)).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  for (const [p, n] of others) {
    if (n.kind === "link") ops.push({ kind: "symlink", target: n.sig, path: at(p), api });
    else writeFile(p, p, before.has(p) ? "w" : "wx", n.mode);
  }
  // 4. The new index through its lock; a lock taken for nothing is dropped.
  for (const index of indexes) {
    const gitDir = gitDirOf(index);
    if (!locks.has(gitDir)) continue;
    writeFile(index, `${gitDir}/index.lock`, "w", after.get(index)!.mode);
    ops.push({ kind: "rename", from: at(`${gitDir}/index.lock`), to: at(index), api });
    locks.delete(gitDir);
  }
  for (const gitDir of locks) ops.push({ kind: "unlink", path: at(`${gitDir}/index.lock`), api });
  // 5. What it removed, deepest first.
  for (const p of removed.filter((p) => !after.has(p)).sort(deepestFirst)) ops.push(removal(at(p), before.get(p)!.kind, api));
  return ops;
}

/** The `.git` folder a path inside it belongs to ("work/.git"). */
function gitDirOf(p: string): string {
  return p.slice(0, p.indexOf(".git/") + 4);
}

function removal(p: string, kind: SnapshotNode["kind"], api: string): FsOp {
  return kind === "dir" ? { kind: "rmdir", path: p, api } : { kind: "unlink", path: p, api };
}

function deepestFirst(a: string, b: string): number {
  return b.split("/").length - a.split("/").length || a.localeCompare(b);
}
