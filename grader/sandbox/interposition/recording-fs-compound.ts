// The recorded calls Node makes of several system calls: a recursive mkdir, copyFile and cpSync,
// built from the recorded calls in the order Node (and libuv under it) makes those system calls,
// so a crash can land between two of them, and a call fails as Node's does, with its error.
import realFs from "node:fs";
import path from "node:path";
import { exists, toPath, type CpOptions, type PathLike } from "./fs-arguments.js";
import { isSystemError, systemError } from "./fs-errors.js";
import { cpSyncCopiesFolderNatively, cpSyncGivesFolderMode, cpSyncReplacesExclusively } from "./node-quirks.js";
import type { SyncFs } from "./recording-fs-async.js";

/** A recorded mkdir of one folder; `recursive` when it is one step of a recursive mkdir, and `call` the path that mkdir was given. */
export type MakeFolder = (dir: string, mode: number | undefined, opts: { recursive: boolean; call?: string }) => void;

/** Errors that end Node's recursive mkdir at once (any other is looked into). */
const MKDIRP_ENDS = new Set(["EACCES", "ENOSPC", "ENOTDIR", "EPERM"]);

/** The recursive mkdir, copyFile and cpSync, made through the recorded calls of `sync`. */
/** Tells the recorder what a call looks at on the disk beyond the recorded operations it makes (see Recorder.lookedAt). */
export type Look = (p: PathLike, depth: "whole" | "entry" | "listing") => void;

export function compoundCalls(sync: SyncFs, makeFolder: MakeFolder, look: Look) {
  /**
   * mkdirSync(p, { recursive: true }) as Node makes it (MKDirpSync in node_file.cc), on the path
   * as given: mkdir it; where a folder above is missing, make that one first (the path cut at its
   * last "/"), then try again; a name already there must be a folder. Returns the first folder
   * made, spelled as Node spells it (relative when `p` is); an error names `p`, as Node's does.
   */
  function mkdirp(p: string, mode: number | undefined): string | undefined {
    const todo = [p];
    let first: string | undefined;
    while (todo.length > 0) {
      const dir = todo.pop()!;
      look(dir, "entry");
      const error = failure(() => makeFolder(dir, mode, { recursive: true, call: p }));
      if (!error) {
        first ??= dir;
        continue;
      }
      if (MKDIRP_ENDS.has(error.code!)) throw systemError(error, "mkdir", p);
      if (error.code === "ENOENT") {
        const cut = dir.lastIndexOf("/");
        const parent = cut === -1 ? dir : dir.slice(0, cut);
        if (parent !== dir) todo.push(dir, parent);
        // No folder above to make: Node passes over it, or, when it was the last, takes it as EEXIST.
        if (parent !== dir || todo.length > 0) continue;
      }
      const code = error.code === "ENOENT" ? "EEXIST" : error.code;
      let folder = false;
      const statError = failure(() => (folder = realFs.statSync(dir).isDirectory()));
      if (statError) throw systemError(statError, "mkdir", p);
      // A name that is not a folder: EEXIST, or ENOTDIR when a folder was still to be made below it.
      if (!folder) throw systemError(code === "EEXIST" && todo.length > 0 ? "ENOTDIR" : "EEXIST", "mkdir", p);
    }
    return first;
  }

  /**
   * copyFileSync as libuv makes it (uv__fs_copyfile), step by recorded step, so a copy can be torn:
   * the source opened (a missing one fails before anything changes); unless the destination is the
   * source itself (left alone), the destination opened, created with the source's mode or emptied,
   * given that mode (fchmod), written, closed. Errors name the call: "copyfile 'a' -> 'b'".
   */
  function copyFile(src: PathLike, dest: PathLike, mode: number): void {
    // A clone is one step the recording cannot see inside: refused as a file system without
    // clones refuses it (tmpfs, ext4), where Node's own throws the same.
    if (mode & realFs.constants.COPYFILE_FICLONE_FORCE) throw systemError("ENOTSUP", "copyfile", toPath(src), toPath(dest));
    try {
      copySteps(src, dest, (mode & realFs.constants.COPYFILE_EXCL) !== 0);
    } catch (error) {
      throw isSystemError(error) ? systemError(error, "copyfile", toPath(src), toPath(dest)) : error;
    }
  }

  function copySteps(src: PathLike, dest: PathLike, excl: boolean): void {
    look(src, "whole");
    look(dest, "entry");
    const from = realFs.openSync(src, "r");
    try {
      const stat = realFs.fstatSync(from);
      if (!excl && sameFile(stat, dest)) return openToWrite(dest);
      const { O_WRONLY, O_CREAT, O_EXCL } = realFs.constants;
      fillCopy(from, stat, dest, { flags: O_WRONLY | O_CREAT | (excl ? O_EXCL : 0), truncate: !excl });
    } finally {
      realFs.closeSync(from);
    }
  }

  /**
   * Writes the copy of the file open at `from`, the destination opened with `flags` and `openMode`
   * (else the source's mode); one it could not finish is removed, as libuv removes it (a folder
   * copied onto a file removes the file). libuv opens without O_TRUNC and, unless exclusive,
   * empties the destination with an ftruncate: a crash between the two leaves an existing one whole.
   */
  function fillCopy(from: number, stat: realFs.Stats, dest: PathLike, { flags, openMode, truncate = false }: { flags: number; openMode?: number; truncate?: boolean }): void {
    const perms = stat.mode & 0o7777;
    const fd = sync.openSync!(dest, flags, openMode ?? perms);
    try {
      if (truncate) sync.ftruncateSync!(fd, 0);
      // libuv gives the copy the source's mode (an existing destination keeps its own through the
      // open). A fchmod that changes nothing stays out of the trace: its crash state would be the open's.
      if (!hasMode(realFs.fstatSync(fd), perms)) sync.fchmodSync!(fd, perms);
      const bytes = readUpTo(from, stat.size);
      for (let off = 0; off < bytes.byteLength; ) off += sync.writeSync!(fd, bytes, off, bytes.byteLength - off, null);
    } catch (error) {
      sync.closeSync!(fd);
      failure(() => sync.unlinkSync!(dest));
      throw error;
    }
    sync.closeSync!(fd);
  }

  /** cpSync as Node does it: folders made and walked, links copied as links, a file over an existing one unlinked first (in a folder Node copies in C++, written over). */
  function copyTree(src: string, dest: string, opts: CpOptions, { inNativeFolder = false }: { inNativeFolder?: boolean } = {}): void {
    if (opts.filter && !opts.filter(src, dest)) return;
    look(src, "whole");
    look(dest, "entry");
    const stat = opts.dereference ? realFs.statSync(src) : realFs.lstatSync(src);
    const there = exists(dest);
    if (stat.isDirectory()) {
      if (!opts.recursive) throw Object.assign(new Error(`Recursive option is required to copy a directory: cp returned EISDIR (${src} is a directory (not copied))`), { code: "ERR_FS_EISDIR" });
      if (!there) sync.mkdirSync!(dest, { recursive: true });
      const filtered = { filtered: opts.filter !== undefined };
      const inNative = { inNativeFolder: cpSyncCopiesFolderNatively(filtered) };
      for (const name of realFs.readdirSync(src)) copyTree(path.join(src, name), path.join(dest, name), opts, inNative);
      // Node's cpSync gives a folder it made its source's mode once it is filled, where node-quirks.ts says it does.
      const perms = stat.mode & 0o7777;
      if (!there && cpSyncGivesFolderMode(filtered) && !hasMode(realFs.statSync(dest), perms)) sync.chmodSync!(dest, perms);
    } else {
      if (there && opts.force === false) {
        if (opts.errorOnExist) throw Object.assign(new Error(`Target already exists: cp returned EEXIST (${dest} already exists)`), { code: "ERR_FS_CP_EEXIST" });
        return;
      }
      // In Node's C++ folder copy a file already there is emptied and written over, not unlinked.
      if (inNativeFolder && !stat.isSymbolicLink()) stdCopy(src, dest, { exclusive: false });
      else {
        if (there) sync.unlinkSync!(dest);
        if (stat.isSymbolicLink()) sync.symlinkSync!(realFs.readlinkSync(src), dest);
        else if (there && cpSyncReplacesExclusively()) stdCopy(src, dest, { exclusive: true });
        else copyFile(src, dest, opts.mode ?? 0);
      }
    }
    if (opts.preserveTimestamps && !stat.isSymbolicLink()) sync.utimesSync!(dest, stat.atime, stat.mtime);
  }

  /**
   * A copy as std::filesystem::copy_file makes it, on the Nodes whose cpSync uses it (node-quirks.ts):
   * exclusive onto the name of the file cpSync just unlinked, or over whatever is there (O_TRUNC).
   */
  function stdCopy(src: string, dest: string, { exclusive }: { exclusive: boolean }): void {
    const from = realFs.openSync(src, "r");
    try {
      const { O_WRONLY, O_CREAT, O_EXCL, O_TRUNC } = realFs.constants;
      fillCopy(from, realFs.fstatSync(from), dest, { flags: O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC), openMode: 0o200 });
    } finally {
      realFs.closeSync(from);
    }
  }

  return { mkdirp, copyFile, copyTree };
}

/** Runs `step`; the system error it threw, or null. Any other error (a bug, a refusal) goes on up. */
function failure(step: () => unknown): NodeJS.ErrnoException | null {
  try {
    step();
    return null;
  } catch (error) {
    if (isSystemError(error)) return error;
    throw error;
  }
}

/** Whether `dest` names the file `stat` is of (another of its names, or a link to it). */
function sameFile(stat: realFs.Stats, dest: PathLike): boolean {
  try {
    const other = realFs.statSync(dest);
    return other.dev === stat.dev && other.ino === stat.ino;
  } catch {
    return false; // the open of the destination says why, if it cannot be opened either
  }
}

/** Whether a file has the permission bits `perms` and is this user's: a chmod would change nothing, and could not fail. */
function hasMode(stat: realFs.Stats, perms: number): boolean {
  return (stat.mode & 0o7777) === perms && stat.uid === process.geteuid?.();
}

/**
 * libuv opens the destination to write before it sees it is the source: a file copied onto itself
 * is left alone, unless it cannot be opened to write (a folder: EISDIR). This open changes nothing.
 */
function openToWrite(dest: PathLike): void {
  realFs.closeSync(realFs.openSync(dest, realFs.constants.O_WRONLY));
}

/** The first `size` bytes of the file open at `fd` (fewer if it is shorter now): what libuv copies. A folder cannot be read (EISDIR). */
function readUpTo(fd: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let got = 0;
  while (got < size) {
    const n = realFs.readSync(fd, bytes, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return bytes.subarray(0, got);
}
