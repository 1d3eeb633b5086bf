// What a git command did to the scenario folder, as the operations that turn the folder before
// it into the folder after it, in the order git itself works, so a crash can be placed inside it:
//   1. it takes the index lock (creates `.git/index.lock`) when it writes the index, or objects
//      and a ref (as git add, git commit and git reset do; git hash-object does not), once the
//      folder of the lock is there (a step that made the repository makes it first);
//   2. it writes its new objects (`.git/objects/..`), each file whole;
//   3. it changes other files: the work tree, then `.git` files, refs last;
//   4. it puts the new index in place (renames the lock over `.git/index`), or drops the lock;
//   5. it removes what it removed.
// A crash after step 2 leaves what a killed `git commit` leaves: the lock and objects no ref
// points at. Each op's `api` is "exec:<command>", so messages can name the command.
import type { FsOp } from "../../../crash/model.js";
import type { Snapshot, SnapshotNode } from "./snapshot.js";

/** What git's operations are named (`api`), their descriptor ids (`fd()`), and what a file held after git (`read`, by path relative to the scenario folder). */
export interface GitContext {
  api: string;
  fd: () => number;
  read: (rel: string) => Buffer;
}

/** The operations from `before` to `after` (two listings of the scenario folder). */
export function gitOps(before: Snapshot, after: Snapshot, context: GitContext): FsOp[] {
  const { api, fd, read } = context;
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
    ops.push({ kind: "write", fd: id, bytes: read(rel), position: null, api });
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
  // 1. The index lock, for a command that writes the index, or objects and a ref, and did not
  //    find one there; its folder first, when the line made the repository (`git init && git add`).
  const locks = new Set(lockedGitDirs(files.map(([p]) => p), objects.map(([p]) => p), { before, after }));
  const folders = changed.filter(([, n]) => n.kind === "dir").sort(([a], [b]) => a.localeCompare(b));
  const holdsLock = (p: string) => [...locks].some((d) => d === p || d.startsWith(p + "/"));
  const mkdir = ([p, n]: [string, SnapshotNode]) => ops.push({ kind: "mkdir", path: at(p), mode: n.mode, api });
  folders.filter(([p]) => holdsLock(p)).forEach(mkdir);
  for (const gitDir of locks) {
    const id = fd();
    ops.push({ kind: "open", path: at(`${gitDir}/index.lock`), flags: "wx", mode: 0o644, fd: id, api }, { kind: "close", fd: id, api });
  }
  // 2. The other new folders, parents first, then the objects.
  folders.filter(([p]) => !holdsLock(p)).forEach(mkdir);
  for (const [p, n] of objects) writeFile(p, p, "wx", n.mode);
  // 3. Everything else: the work tree, then .git's own files, refs and HEAD last.
  const rank = (p: string) => (!p.includes(".git/") ? 0 : /\.git\/(refs\/|HEAD$|packed-refs$)/.test(p) ? 2 : 1);
  const others = files.filter(([p]) => !isObject(p) && !indexes.includes(p)).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  for (const [p, n] of others) {
    // A link git changed is made anew (an existing name cannot be linked over).
    if (n.kind === "link" && before.get(p)?.kind === "link") ops.push({ kind: "unlink", path: at(p), api });
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

/**
 * The `.git` folders whose index lock the command took: those whose index it wrote, or where it
 * wrote objects and a ref (git commit holds the lock even when the index does not change), when
 * no lock was there before or is left after.
 */
function lockedGitDirs(files: string[], objects: string[], listings: { before: Snapshot; after: Snapshot }): string[] {
  const indexes = files.filter((p) => /(^|\/)\.git\/index$/.test(p)).map(gitDirOf);
  const refs = files.filter((p) => /\.git\/(refs\/|HEAD$|packed-refs$)/.test(p)).map(gitDirOf);
  const objectsAndRef = objects.map(gitDirOf).filter((d) => refs.includes(d));
  return [...new Set([...indexes, ...objectsAndRef])].filter((d) => !listings.before.has(`${d}/index.lock`) && !listings.after.has(`${d}/index.lock`));
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
