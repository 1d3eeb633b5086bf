// The `fs` module a target receives: Node's own, with every call that changes the disk routed
// through a few primitives (open, write, truncate, fsync, close, rename, unlink, rmdir, mkdir,
// symlink, link, attr) that run for real and are recorded. High-level calls are built from them
// the way Node builds them, so `writeFileSync`, `copyFileSync` or `cpSync` can be torn like the
// writes they are (recording-fs-compound.ts). Which export is passed through, recorded or refused
// is fs-surface.ts's table.
import crypto from "node:crypto";
import realFs from "node:fs";
import path from "node:path";
import { opensToCreate } from "../../crash/trace.js";
import type { AttrCall, FsOp } from "../../crash/model.js";
import { PendingOps, type SyncFs } from "./recording-fs-async.js";
import { compoundCalls } from "./recording-fs-compound.js";
import { assemble } from "./recording-fs-module.js";
import { exists, toAttrNumber, toBytes, toMode, toPath, writeArgs, type CpOptions, type PathLike } from "./fs-arguments.js";
import { isSystemError, systemError } from "./fs-errors.js";
import { flushIgnored, rmForceForgivesNotDir } from "./node-quirks.js";
import type { Recorder } from "./recorder.js";

/** The letters and digits of a mkdtemp name, as libuv draws them. */
const TEMP_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export { PendingOps };

type AnyFn = (...args: any[]) => any;
/** An operation before the recorder names the API it came from. */
type Unnamed<T> = T extends unknown ? Omit<T, "api"> : never;

/** The name an operation is told by: the API, after the package that called it when one did. */
function calledBy(api: string, pkg: string | undefined): string {
  return pkg ? `${pkg}'s ${api}` : api;
}

/** Returns an `fs` look-alike that records into whatever `current()` returns at call time. */
export function createRecordingFs(current: () => Recorder | null, pending: PendingOps): typeof realFs {
  /** Runs one primitive: asks the recorder's hook, performs it, then records it. */
  function primitive<T>(op: Unnamed<FsOp>, run: () => T): T {
    const rec = current();
    const full = { ...op, api: rec?.api || "fs" } as FsOp;
    rec?.lookedAtOp(full);
    rec?.beforeOp?.(full);
    const result = run();
    rec?.push(full);
    return result;
  }

  /** Runs `work` as the call `name`, unless it runs inside another call, whose name it keeps. */
  function named<T>(name: string, work: () => T): T {
    const rec = current();
    if (!rec) return work();
    // A call a package makes is told as that package's ("write-file-atomic's writeSync"):
    // the target did not write that call itself.
    if (rec.depth++ === 0) rec.api = calledBy(name, rec.callerOf?.());
    try {
      return work();
    } finally {
      if (--rec.depth === 0) rec.api = "";
    }
  }

  /** Names the outermost wrapped call, so nested primitives say which API the target used. */
  function api<F extends AnyFn>(name: string, fn: F): F {
    return function (this: unknown, ...args: unknown[]) {
      return named(name, () => fn.apply(this, args));
    } as F;
  }

  const store = (p: PathLike) => current()?.store(toPath(p)) ?? toPath(p);
  /** Tells the recorder what a call looks at on the disk itself, beyond the recorded operations it makes. */
  const look = (p: PathLike, depth: "whole" | "entry" | "listing") => {
    const rec = current();
    if (!rec) return;
    let stored: string;
    try {
      stored = rec.store(toPath(p));
    } catch {
      // Not a path: the call itself throws Node's own error for it.
      return rec.lookedBeyond("a call was given something that is not a path");
    }
    rec.lookedAt(stored, depth);
  };
  const randomName = (length: number) => [...crypto.randomBytes(length)].map((b) => TEMP_CHARS[b % TEMP_CHARS.length]).join("");
  const fdOf = (fd: number) => current()?.fdId(fd);

  const sync = {
    openSync: api("openSync", (p: PathLike, flags: string | number = "r", mode?: number) => {
      const rec = current();
      if (!rec) return realFs.openSync(p, flags, mode);
      const op = { kind: "open", path: rec.store(toPath(p)), flags, mode: toMode(mode), fd: 0, api: rec.api || "fs" } as const;
      // Only a file that is not there yet takes space to create (checked only while faults are on).
      if (rec.faults?.armed && opensToCreate(flags) && !exists(toPath(p))) refuseCreation(op.api, op.path, "open", p);
      rec.lookedAtOp(op);
      rec.beforeOp?.(op);
      const fd = realFs.openSync(p, flags, mode);
      rec.push({ ...op, fd: rec.openedFd(fd, op.path) });
      return fd;
    }),
    writeSync: api("writeSync", (fd: number, data: any, ...rest: any[]) => {
      const { bytes, position } = writeArgs(data, rest);
      return writeBytes(fd, bytes, position);
    }),
    writevSync: api("writevSync", (fd: number, buffers: ArrayBufferView[], position?: number | null) => {
      const bytes = Buffer.concat(buffers.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
      return writeBytes(fd, bytes, typeof position === "number" ? position : null);
    }),
    closeSync: api("closeSync", (fd: number) => {
      const id = fdOf(fd);
      if (id === undefined) return realFs.closeSync(fd);
      primitive({ kind: "close", fd: id }, () => realFs.closeSync(fd));
      current()?.closedFd(fd);
    }),
    fsyncSync: api("fsyncSync", (fd: number) => syncFd(fd, { data: false })),
    fdatasyncSync: api("fdatasyncSync", (fd: number) => syncFd(fd, { data: true })),
    ftruncateSync: api("ftruncateSync", (fd: number, length = 0) => {
      const id = fdOf(fd);
      if (id === undefined) return realFs.ftruncateSync(fd, length);
      primitive({ kind: "ftruncate", fd: id, length }, () => realFs.ftruncateSync(fd, length));
    }),
    truncateSync: api("truncateSync", (p: PathLike | number, length = 0) => {
      // Node still takes a descriptor here (deprecated): it is an ftruncate.
      if (typeof p === "number") return sync.ftruncateSync(p, length);
      primitive({ kind: "truncate", path: store(p), length }, () => realFs.truncateSync(p, length));
    }),
    renameSync: api("renameSync", (from: PathLike, to: PathLike) =>
      primitive({ kind: "rename", from: store(from), to: store(to) }, () => realFs.renameSync(from, to)),
    ),
    unlinkSync: api("unlinkSync", (p: PathLike) =>
      primitive({ kind: "unlink", path: store(p) }, () => realFs.unlinkSync(p)),
    ),
    rmdirSync: api("rmdirSync", (p: PathLike, options?: { recursive?: boolean }) => {
      // Node's recursive rmdir (deprecated) removes a folder and all it holds; anything else goes on
      // to the plain rmdir (a file: ENOTDIR), and a missing path throws its lstat's ENOENT.
      if (options?.recursive) {
        look(p, "entry");
        warnRecursiveRmdir();
        if (realFs.lstatSync(p).isDirectory()) return sync.rmSync(p, { recursive: true, force: true });
      }
      primitive({ kind: "rmdir", path: store(p) }, () => realFs.rmdirSync(p));
    }),
    mkdirSync: api("mkdirSync", (p: PathLike, options?: number | string | { recursive?: boolean; mode?: number | string }) => {
      const opts = typeof options === "number" || typeof options === "string" ? { mode: options } : (options ?? {});
      const mode = toMode(opts.mode) as number | undefined;
      if (opts.recursive) return compound.mkdirp(toPath(p), mode);
      makeFolder(p, mode, { recursive: false });
      return undefined;
    }),
    mkdtempSync: api("mkdtempSync", (prefix: string, options?: unknown) => {
      refuseCreation("mkdtempSync", store(`${prefix}XXXXXX`), "mkdtemp", `${prefix}XXXXXX`);
      // mkdtemp as libuv makes it: six random letters or digits after the prefix, the folder made
      // 0o700 (less the umask), another name while one is taken. Made here, not by the real
      // mkdtemp, so that a kill before it lands before the folder is there.
      const encoding = typeof options === "string" ? options : (options as { encoding?: string } | undefined)?.encoding;
      for (let tries = 0; ; tries++) {
        const dir = `${toPath(prefix)}${randomName(6)}`;
        try {
          primitive({ kind: "mkdir", path: store(dir), mode: 0o700 }, () => realFs.mkdirSync(dir, 0o700));
          return encoding === "buffer" ? Buffer.from(dir) : dir;
        } catch (error) {
          if (!isSystemError(error)) throw error; // a kill, or the disk's own fault
          if (error.code !== "EEXIST" || tries >= 100) throw systemError(error, "mkdtemp", `${toPath(prefix)}XXXXXX`);
        }
      }
    }),
    symlinkSync: api("symlinkSync", (target: PathLike, p: PathLike, type?: any) =>
      refuseCreation(current()?.api || "symlinkSync", store(p), "symlink", p) ?? primitive({ kind: "symlink", target: path.isAbsolute(toPath(target)) ? store(target) : toPath(target), path: store(p) }, () =>
        realFs.symlinkSync(target, p, type),
      ),
    ),
    linkSync: api("linkSync", (from: PathLike, to: PathLike) =>
      refuseCreation(current()?.api || "linkSync", store(to), "link", to) ?? primitive({ kind: "link", from: store(from), to: store(to) }, () => realFs.linkSync(from, to)),
    ),
    writeFileSync: api("writeFileSync", (file: PathLike | number, data: any, options?: any) =>
      writeWhole(file, data, options, { flag: "w", fastPath: true }),
    ),
    appendFileSync: api("appendFileSync", (file: PathLike | number, data: any, options?: any) =>
      writeWhole(file, data, options, { flag: "a", fastPath: true }),
    ),
    copyFileSync: api("copyFileSync", (src: PathLike, dest: PathLike, mode = 0) => compound.copyFile(src, dest, mode)),
    cpSync: api("cpSync", (src: PathLike, dest: PathLike, options?: CpOptions) => compound.copyTree(toPath(src), toPath(dest), options ?? {})),
    rmSync: api("rmSync", (p: PathLike, options?: { recursive?: boolean; force?: boolean }) => {
      look(p, "entry");
      if (options?.recursive) look(p, "listing");
      let stat: realFs.Stats;
      try {
        stat = realFs.lstatSync(p);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (options?.force && (code === "ENOENT" || (code === "ENOTDIR" && options.recursive && rmForceForgivesNotDir()))) return;
        throw error;
      }
      try {
        if (!stat.isDirectory()) return sync.unlinkSync(p);
        if (!options?.recursive) return realFs.rmSync(p, options); // throws Node's own error
        for (const name of realFs.readdirSync(p)) sync.rmSync(path.join(toPath(p), name), options);
        sync.rmdirSync(p);
      } catch (error) {
        // Gone in the meantime (another process removed it): with `force`, as in Node, no error.
        if (!options?.force || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }),
    ...attrVersions(),
  };
  const compound = compoundCalls(sync as SyncFs, makeFolder, look);

  /** A recorded write; `flushIgnored` names the Node whose writeFileSync makes it and will skip the fsync it was asked for. */
  function writeBytes(fd: number, bytes: Uint8Array, position: number | null, { flushIgnored }: { flushIgnored?: string } = {}): number {
    const id = fdOf(fd);
    if (id === undefined) return realFs.writeSync(fd, bytes, 0, bytes.byteLength, position);
    const rec = current()!;
    const copy = Buffer.from(bytes);
    const op = { kind: "write", fd: id, bytes: copy, position, api: rec.api || "fs", ...(flushIgnored ? { flushIgnored } : {}) } as const;
    // The disk may say no: a short write, or a full disk.
    const fault = rec.faults?.write(op.api, rec.pathOf(id), copy.byteLength);
    if (fault && "error" in fault) throw fault.error;
    // The hook may tear this write itself: a real kill in the middle of it.
    rec.beforeOp?.(op, fd);
    const written = realFs.writeSync(fd, copy, 0, fault ? fault.bytes : copy.byteLength, position);
    rec.push({ ...op, bytes: written === copy.byteLength ? copy : copy.subarray(0, written) });
    return written;
  }

  /** fsync, or with `data` fdatasync. */
  function syncFd(fd: number, { data }: { data: boolean }): void {
    const id = fdOf(fd);
    const run = () => (data ? realFs.fdatasyncSync(fd) : realFs.fsyncSync(fd));
    if (id === undefined) return run();
    const rec = current()!;
    // An I/O error: the fsync is recorded as failed (its data may be lost), and throws.
    const error = rec.faults?.fsync(rec.api || "fs", rec.pathOf(id));
    if (error) {
      rec.push({ kind: "fsync", fd: id, data, failed: true, api: rec.api || "fs" });
      throw error;
    }
    primitive({ kind: "fsync", fd: id, data }, run);
  }

  /** Throws the disk's ENOSPC when faults are on and the disk is (or now gets) full; `real` is the path the error names. */
  function refuseCreation(apiName: string, stored: string, syscall: string, real: PathLike): undefined {
    const error = current()?.faults?.create(apiName, stored, syscall, toPath(real));
    if (error) throw error;
    return undefined;
  }

  /**
   * writeFile and appendFile as Node does them: open (unless given a descriptor), write every
   * byte, fsync when asked to `flush` (unless this Node's `fastPath` of writeFileSync skips it), close.
   */
  function writeWhole(file: PathLike | number, data: any, options: any, { flag, fastPath }: { flag: string; fastPath: boolean }): void {
    // No options are Node's defaults: the encoding "utf8".
    const opts = typeof options === "string" ? { encoding: options } : (options ?? { encoding: "utf8" });
    const bytes = toBytes(data, opts.encoding);
    const skipped = opts.flush && fastPath && flushIgnored(data, opts.encoding);
    const mark = skipped ? { flushIgnored: process.versions.node } : {};
    const fd = typeof file === "number" ? file : sync.openSync(file, opts.flag ?? flag, opts.mode ?? 0o666);
    try {
      for (let off = 0; off < bytes.byteLength; ) off += writeBytes(fd, bytes.subarray(off), null, mark);
      if (opts.flush && !skipped) syncFd(fd, { data: false });
    } finally {
      if (fd !== file) sync.closeSync(fd);
    }
  }

  /**
   * A recorded mkdir of one folder. The disk's faults may refuse it for want of space; in a
   * recursive mkdir only when it will make the folder: Node's also tries paths that are there, or
   * whose folder is missing, and those fail whatever the space.
   */
  function makeFolder(dir: PathLike, mode: number | undefined, { recursive, call }: { recursive: boolean; call?: string }): void {
    if (!recursive || (current()?.faults?.armed && willMake(toPath(dir)))) refuseCreation(current()?.api || "mkdirSync", store(dir), "mkdir", dir);
    // Each folder a recursive mkdir makes says which call made it: mkdirSync("a/b", {recursive: true}), not mkdirSync("a").
    const made = recursive ? store(call ?? dir) : undefined;
    primitive({ kind: "mkdir", path: store(dir), mode, recursive: made }, () => realFs.mkdirSync(dir, { mode }));
  }

  /** chmod, chown and utimes, on a path, a link or a descriptor: each recorded as it is made. */
  function attrVersions() {
    const out: Record<string, AnyFn> = {};
    const calls: [AttrCall, "path" | "fd"][] = [
      ["chmodSync", "path"], ["lchmodSync", "path"], ["fchmodSync", "fd"], ["chownSync", "path"], ["lchownSync", "path"],
      ["fchownSync", "fd"], ["utimesSync", "path"], ["lutimesSync", "path"], ["futimesSync", "fd"],
    ];
    for (const [call, by] of calls) {
      const real = realFs[call] as AnyFn | undefined;
      if (!real) continue; // lchmod exists only on macOS
      out[call] = api(call, (target: PathLike | number, ...rest: unknown[]) => {
        const args = rest.map(toAttrNumber);
        if (by === "fd") {
          const id = fdOf(target as number);
          if (id === undefined) return real(target, ...args);
          return primitive({ kind: "attr", call, fd: id, args }, () => real(target, ...args));
        }
        return primitive({ kind: "attr", call, path: store(target as PathLike), args }, () => real(target, ...args));
      });
    }
    return out;
  }

  // fs.writeFile and fs.promises.writeFile have no fast path: `flush` always fsyncs. Each is told by the name it was called by (recording-fs-async.ts).
  const twins = {
    writeFile: api("writeFileSync", (file: PathLike | number, data: any, options?: any) => writeWhole(file, data, options, { flag: "w", fastPath: false })),
    appendFile: api("appendFileSync", (file: PathLike | number, data: any, options?: any) => writeWhole(file, data, options, { flag: "a", fastPath: false })),
  };
  return assemble(current, sync as SyncFs, { pending, twins, named });
}

/** Whether a mkdir of `dir` would make a folder: nothing is there, and a folder is above it. */
function willMake(dir: string): boolean {
  try {
    return !exists(dir) && realFs.statSync(path.dirname(path.resolve(dir))).isDirectory();
  } catch {
    return false;
  }
}

let warnedOfRecursiveRmdir = false;

/** Node's warning, once a process, that rmdir's `recursive` will go (DEP0147). */
function warnRecursiveRmdir(): void {
  if (warnedOfRecursiveRmdir) return;
  warnedOfRecursiveRmdir = true;
  process.emitWarning("In future versions of Node.js, fs.rmdir(path, { recursive: true }) will be removed. Use fs.rm(path, { recursive: true }) instead", "DeprecationWarning", "DEP0147");
}
