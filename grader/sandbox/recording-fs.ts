// The `fs` module a target receives: Node's own, with every call that changes the disk routed
// through a few primitives (open, write, truncate, fsync, close, rename, unlink, rmdir, mkdir,
// symlink, link) that run for real and are recorded. High-level calls are built from them the
// way Node builds them, so `writeFileSync` or `copyFileSync` can be torn like the writes they are.
import realFs from "node:fs";
import path from "node:path";
import type { FsOp } from "../crash/trace.js";
import type { Recorder } from "./recorder.js";

type AnyFn = (...args: any[]) => any;
/** An operation before the recorder names the API it came from. */
type Unnamed<T> = T extends unknown ? Omit<T, "api"> : never;
type PathLike = string | Buffer | URL;

/** Returns an `fs` look-alike that records into whatever `current()` returns at call time. */
export function createRecordingFs(current: () => Recorder | null, pending: PendingOps) {
  /** Runs one primitive: asks the recorder's hook, performs it, then records it. */
  function primitive<T>(op: Unnamed<FsOp>, run: () => T, record = true): T {
    const rec = current();
    const full = { ...op, api: rec?.api || "fs" } as FsOp;
    rec?.beforeOp?.(full);
    const result = run();
    if (rec && record) rec.push(full);
    return result;
  }

  /** Names the outermost wrapped call, so nested primitives say which API the target used. */
  function api<F extends AnyFn>(name: string, fn: F): F {
    return function (this: unknown, ...args: unknown[]) {
      const rec = current();
      if (!rec) return fn.apply(this, args);
      if (rec.depth++ === 0) rec.api = name;
      try {
        return fn.apply(this, args);
      } finally {
        if (--rec.depth === 0) rec.api = "";
      }
    } as F;
  }

  const store = (p: PathLike) => current()?.store(toPath(p)) ?? toPath(p);
  const fdOf = (fd: number) => current()?.fdId(fd);

  const sync = {
    openSync: api("openSync", (p: PathLike, flags: string | number = "r", mode?: number) => {
      const rec = current();
      if (!rec) return realFs.openSync(p, flags, mode);
      const op = { kind: "open", path: rec.store(toPath(p)), flags, mode, fd: 0, api: rec.api || "fs" } as const;
      rec.beforeOp?.(op);
      const fd = realFs.openSync(p, flags, mode);
      rec.push({ ...op, fd: rec.openedFd(fd) });
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
    fsyncSync: api("fsyncSync", (fd: number) => syncFd(fd, false)),
    fdatasyncSync: api("fdatasyncSync", (fd: number) => syncFd(fd, true)),
    ftruncateSync: api("ftruncateSync", (fd: number, length = 0) => {
      const id = fdOf(fd);
      if (id === undefined) return realFs.ftruncateSync(fd, length);
      primitive({ kind: "ftruncate", fd: id, length }, () => realFs.ftruncateSync(fd, length));
    }),
    truncateSync: api("truncateSync", (p: PathLike, length = 0) =>
      primitive({ kind: "truncate", path: store(p), length }, () => realFs.truncateSync(p, length)),
    ),
    renameSync: api("renameSync", (from: PathLike, to: PathLike) =>
      primitive({ kind: "rename", from: store(from), to: store(to) }, () => realFs.renameSync(from, to)),
    ),
    unlinkSync: api("unlinkSync", (p: PathLike) =>
      primitive({ kind: "unlink", path: store(p) }, () => realFs.unlinkSync(p)),
    ),
    rmdirSync: api("rmdirSync", (p: PathLike, options?: { recursive?: boolean }) => {
      if (options?.recursive) return sync.rmSync(p, { recursive: true, force: true });
      primitive({ kind: "rmdir", path: store(p) }, () => realFs.rmdirSync(p));
    }),
    mkdirSync: api("mkdirSync", (p: PathLike, options?: number | { recursive?: boolean; mode?: number }) => {
      const opts = typeof options === "number" ? { mode: options } : (options ?? {});
      if (!opts.recursive) {
        primitive({ kind: "mkdir", path: store(p), mode: opts.mode }, () => realFs.mkdirSync(p, { mode: opts.mode }));
        return undefined;
      }
      const missing: string[] = [];
      for (let dir = path.resolve(toPath(p)); !realFs.existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
      for (const dir of missing) {
        try {
          sync.mkdirSync(dir, { mode: opts.mode });
        } catch (error) {
          // Another process made it in the meantime: as Node's own recursive mkdir, that is no error.
          if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !realFs.statSync(dir).isDirectory()) throw error;
        }
      }
      return missing[0];
    }),
    mkdtempSync: api("mkdtempSync", (prefix: string, options?: unknown) => {
      const dir = realFs.mkdtempSync(prefix, options as any) as string;
      primitive({ kind: "mkdir", path: store(dir) }, () => undefined);
      return dir;
    }),
    symlinkSync: api("symlinkSync", (target: PathLike, p: PathLike, type?: any) =>
      primitive({ kind: "symlink", target: path.isAbsolute(toPath(target)) ? store(target) : toPath(target), path: store(p) }, () =>
        realFs.symlinkSync(target, p, type),
      ),
    ),
    linkSync: api("linkSync", (from: PathLike, to: PathLike) =>
      primitive({ kind: "link", from: store(from), to: store(to) }, () => realFs.linkSync(from, to)),
    ),
    writeFileSync: api("writeFileSync", (file: PathLike | number, data: any, options?: any) =>
      writeWhole(file, data, options, "w"),
    ),
    appendFileSync: api("appendFileSync", (file: PathLike | number, data: any, options?: any) =>
      writeWhole(file, data, options, "a"),
    ),
    copyFileSync: api("copyFileSync", (src: PathLike, dest: PathLike, mode = 0) => {
      const content = realFs.readFileSync(src);
      const excl = (mode & realFs.constants.COPYFILE_EXCL) !== 0;
      writeWhole(dest, content, { flag: excl ? "wx" : "w" }, "w");
    }),
    rmSync: api("rmSync", (p: PathLike, options?: { recursive?: boolean; force?: boolean }) => {
      let stat: realFs.Stats;
      try {
        stat = realFs.lstatSync(p);
      } catch (error) {
        if (options?.force && (error as NodeJS.ErrnoException).code === "ENOENT") return;
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
  };

  function writeBytes(fd: number, bytes: Uint8Array, position: number | null): number {
    const id = fdOf(fd);
    if (id === undefined) return realFs.writeSync(fd, bytes, 0, bytes.byteLength, position);
    const rec = current()!;
    const copy = Buffer.from(bytes);
    const op = { kind: "write", fd: id, bytes: copy, position, api: rec.api || "fs" } as const;
    // The hook may tear this write itself: a real kill in the middle of it.
    rec.beforeOp?.(op, fd);
    const written = realFs.writeSync(fd, copy, 0, copy.byteLength, position);
    rec.push({ ...op, bytes: written === copy.byteLength ? copy : copy.subarray(0, written) });
    return written;
  }

  function syncFd(fd: number, data: boolean): void {
    const id = fdOf(fd);
    const run = () => (data ? realFs.fdatasyncSync(fd) : realFs.fsyncSync(fd));
    if (id === undefined) return run();
    primitive({ kind: "fsync", fd: id, data }, run);
  }

  /** writeFileSync/appendFileSync as Node does them: open, write every byte, close. */
  function writeWhole(file: PathLike | number, data: any, options: any, defaultFlag: string): void {
    const opts = typeof options === "string" ? { encoding: options } : (options ?? {});
    const bytes = toBytes(data, opts.encoding);
    if (typeof file === "number") {
      for (let off = 0; off < bytes.byteLength; ) off += writeBytes(file, bytes.subarray(off), null);
      return;
    }
    const fd = sync.openSync(file, opts.flag ?? defaultFlag, opts.mode ?? 0o666);
    try {
      for (let off = 0; off < bytes.byteLength; ) off += writeBytes(fd, bytes.subarray(off), null);
      if (opts.flush) syncFd(fd, false);
    } finally {
      sync.closeSync(fd);
    }
  }

  const reads = readingVersions(current);
  const callbacks = callbackVersions(sync, pending);
  // `promises` is made on first use, as Node's own is: loading Node's promise API costs every
  // process that starts a target several milliseconds, and most targets never use it.
  const { promises: _lazy, ...plain } = realFs;
  const out = { ...plain, ...reads, ...sync, ...callbacks };
  let promises: unknown;
  Object.defineProperty(out, "promises", { enumerable: true, configurable: true, get: () => (promises ??= { ...realFs.promises, ...promiseVersions(sync, pending) }) });
  return out as unknown as typeof realFs;
}

const READ_NAMES = ["readFileSync", "readdirSync", "opendirSync", "existsSync", "statSync", "lstatSync", "accessSync", "readlinkSync", "realpathSync"] as const;

/** Calls that only read, told to the recorder's `beforeRead` first (a scheduler may make them wait their turn). */
function readingVersions(current: () => Recorder | null) {
  const out: Record<string, AnyFn> = {};
  for (const name of READ_NAMES) {
    const real = realFs[name] as AnyFn;
    out[name] = (p: unknown, ...rest: unknown[]) => {
      const rec = current();
      if (rec?.beforeRead && rec.depth === 0 && typeof p !== "number") rec.beforeRead(name, rec.store(toPath(p as PathLike)));
      return real(p, ...rest);
    };
  }
  (out.realpathSync as AnyFn & { native?: unknown }).native = realFs.realpathSync.native;
  return out;
}

/** Counts asynchronous operations a target started, so the host can wait for them to settle. */
export class PendingOps {
  count = 0;
  /** Resolves once no asynchronous fs operation is pending (or after `maxTurns` event-loop turns). */
  async settle(maxTurns = 1000): Promise<void> {
    for (let turn = 0; this.count > 0 && turn < maxTurns; turn++) await new Promise((r) => setImmediate(r));
  }
}

const CALLBACK_NAMES = [
  "open", "write", "close", "fsync", "fdatasync", "ftruncate", "truncate", "rename", "unlink",
  "rmdir", "mkdir", "writeFile", "appendFile", "copyFile", "rm", "symlink", "link",
] as const;

/** Callback APIs (`fs.rename(a, b, cb)`) run their sync twin on a later turn of the event loop. */
function callbackVersions(sync: Record<string, AnyFn>, pending: PendingOps) {
  const out: Record<string, AnyFn> = {};
  for (const name of CALLBACK_NAMES) {
    out[name] = (...args: unknown[]) => {
      const cb = typeof args[args.length - 1] === "function" ? (args.pop() as AnyFn) : () => {};
      pending.count++;
      setImmediate(() => {
        pending.count--;
        let result: unknown;
        try {
          result = sync[`${name}Sync`]!(...args);
        } catch (error) {
          return cb(error);
        }
        cb(null, result);
      });
    };
  }
  return out;
}

/** `fs.promises` versions of the same calls, settled on a later turn of the event loop. */
function promiseVersions(sync: Record<string, AnyFn>, pending: PendingOps) {
  const out: Record<string, AnyFn> = {};
  for (const name of CALLBACK_NAMES) {
    if (name === "open" || name === "write" || name === "close" || name === "fsync" || name === "fdatasync" || name === "ftruncate") continue;
    out[name] = (...args: unknown[]) => {
      pending.count++;
      return new Promise((resolve, reject) =>
        setImmediate(() => {
          pending.count--;
          try {
            resolve(sync[`${name}Sync`]!(...args));
          } catch (error) {
            reject(error);
          }
        }),
      );
    };
  }
  return out;
}

function toPath(p: PathLike): string {
  if (p instanceof URL) return decodeURIComponent(p.pathname);
  return Buffer.isBuffer(p) ? p.toString() : String(p);
}

function toBytes(data: any, encoding?: BufferEncoding): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(String(data), encoding ?? "utf8");
}

/** Normalises the two `writeSync` forms to the bytes to write and the position. */
function writeArgs(data: any, rest: any[]): { bytes: Uint8Array; position: number | null } {
  if (typeof data === "string") {
    const [position, encoding] = rest;
    return { bytes: Buffer.from(data, encoding ?? "utf8"), position: typeof position === "number" ? position : null };
  }
  const view = toBytes(data);
  let [offset, length, position] = rest;
  if (offset !== null && typeof offset === "object") ({ offset, length, position } = offset);
  offset = offset ?? 0;
  length = length ?? view.byteLength - offset;
  return { bytes: view.subarray(offset, offset + length), position: typeof position === "number" ? position : null };
}
