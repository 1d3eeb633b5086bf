// The asynchronous faces of the recording fs: callbacks (`fs.rename(a, b, cb)`), `fs.promises`
// (a FileHandle from `fs.promises.open` included) and streams. Each runs the recorded synchronous
// twin on a later turn of the event loop, so what it changes is recorded when it happens, after the
// call that started it may have returned; `PendingOps` counts what is still to come, so the host
// can let it finish before it judges the disk.
import realFs from "node:fs";
import { writeArgs } from "./fs-arguments.js";
import { refused } from "./fs-surface.js";

type AnyFn = (...args: any[]) => any;

/** The recorded synchronous calls, by name ("writeFileSync"). */
export type SyncFs = Record<string, AnyFn>;

/**
 * What an asynchronous call runs where it is not its synchronous twin, by its name ("writeFile"):
 * Node's writeFile and appendFile honour `flush` where writeFileSync's fast path does not.
 */
export type AsyncTwins = Partial<Record<string, AnyFn>>;

/** What the asynchronous faces are built from, beside the recorded synchronous calls. */
export interface AsyncContext {
  pending: PendingOps;
  twins: AsyncTwins;
  /**
   * Runs `work` as the call the target made (`rename`, `fs.promises.rename`, `FileHandle.sync`),
   * so the recorded operations inside it are told by that name, not by the synchronous twin's.
   */
  named: <T>(name: string, work: () => T) => T;
}

/** Counts asynchronous operations a target started, so the host can wait for them to settle. */
export class PendingOps {
  count = 0;
  /**
   * Resolves once no asynchronous fs operation is pending (or after `maxTurns` event-loop turns).
   * It always lets one turn pass first: work queued for the next tick (a stream opens its file
   * there) has then started its operations.
   */
  async settle(maxTurns = 1000): Promise<void> {
    let turn = 0;
    do await new Promise((r) => setImmediate(r));
    while (this.count > 0 && ++turn < maxTurns);
  }
}

/** Recorded calls that also come as callback and promise functions (`rename`, `fs.promises.rename`). */
const TWINNED = [
  "open", "write", "writev", "close", "fsync", "fdatasync", "ftruncate", "truncate", "rename", "unlink", "rmdir", "mkdir",
  "mkdtemp", "writeFile", "appendFile", "copyFile", "cp", "rm", "symlink", "link", "chmod", "fchmod", "lchmod", "chown",
  "fchown", "lchown", "utimes", "futimes", "lutimes",
] as const;

/** fs.promises calls that take a path or a FileHandle, where their callback twins also take a descriptor. */
const PATHS_ONLY = new Set(["writeFile", "appendFile"]);

/** Runs `work` on a later turn of the event loop, counted as pending until it has run. */
function later(pending: PendingOps, work: () => void): void {
  pending.count++;
  setImmediate(() => {
    pending.count--;
    work();
  });
}

/** Callback versions of the recorded calls, and the streams, built on the recorded sync calls. */
export function asyncVersions(sync: SyncFs, context: AsyncContext): Record<string, unknown> {
  const out = callbackVersions(sync, context, (name) => name);
  // A stream's calls are told as the stream's ("createWriteStream"): the target called none of them by name.
  const streamFs = (stream: string) => {
    const calls = callbackVersions(sync, context, () => stream);
    return { open: calls.open, write: calls.write, writev: calls.writev, close: calls.close, fsync: calls.fsync, read: realFs.read };
  };
  const writeStreamFs = streamFs("createWriteStream");
  const readStreamFs = streamFs("createReadStream");
  const withFs = (options: unknown, fs: object) => ({ ...(typeof options === "string" ? { encoding: options } : (options as object | undefined)), fs });
  // Node's stream classes take (path, options), though their typings say otherwise.
  const RealWriteStream = realFs.WriteStream as unknown as new (file: unknown, options: unknown) => realFs.WriteStream;
  const RealReadStream = realFs.ReadStream as unknown as new (file: unknown, options: unknown) => realFs.ReadStream;
  class WriteStream extends RealWriteStream {
    constructor(file: unknown, options?: unknown) {
      super(file, withFs(options, writeStreamFs));
      // Its open and writes come on later turns of the event loop, until it closes: pending till then.
      context.pending.count++;
      this.once("close", () => context.pending.count--);
    }
  }
  class ReadStream extends RealReadStream {
    constructor(file: unknown, options?: unknown) {
      super(file, withFs(options, readStreamFs));
    }
  }
  return {
    ...out,
    // A stream opens, writes and closes through the recorded callbacks (Node's streams take an `fs` of their own).
    createWriteStream: (file: unknown, options?: unknown) => new WriteStream(file, options),
    createReadStream: (file: unknown, options?: unknown) => new ReadStream(file, options),
    WriteStream,
    ReadStream,
    FileWriteStream: WriteStream,
    FileReadStream: ReadStream,
  };
}

/** The callback version of each recorded call, each told as `nameOf(name)` ("rename"). */
function callbackVersions(sync: SyncFs, { pending, twins, named }: AsyncContext, nameOf: (name: string) => string): Record<string, AnyFn> {
  const out: Record<string, AnyFn> = {};
  for (const name of TWINNED) {
    const twin = twins[name] ?? sync[`${name}Sync`];
    // A call this platform does not have (lchmod outside macOS): refused by name.
    if (!twin) {
      out[name] = refused(`fs.${name}`);
      continue;
    }
    out[name] = (...args: unknown[]) => {
      const cb = typeof args[args.length - 1] === "function" ? (args.pop() as AnyFn) : () => {};
      // Node's write checks what it is given as it is called, and throws then (a hex string of odd length).
      if (name === "write") writeArgs(args[1], args.slice(2));
      later(pending, () => {
        let result: unknown;
        try {
          result = named(nameOf(name), () => twin(...args));
        } catch (error) {
          return cb(error);
        }
        // write and writev also hand back what they wrote, as Node's do.
        if (name === "write" || name === "writev") cb(null, result, args[1]);
        else cb(null, result);
      });
    };
  }
  return out;
}

/** `fs.promises` versions of the recorded calls, settled on a later turn of the event loop. */
export function promiseVersions(sync: SyncFs, { pending, twins, named }: AsyncContext): Record<string, AnyFn> {
  /** `work` on a later turn, told as the call `name`, its outcome the promise's. */
  const promised = <T>(name: string, work: () => T): Promise<T> =>
    new Promise((resolve, reject) =>
      later(pending, () => {
        try {
          resolve(named(name, work));
        } catch (error) {
          reject(error);
        }
      }),
    );
  const out: Record<string, AnyFn> = {};
  for (const name of TWINNED) {
    const twin = twins[name] ?? sync[`${name}Sync`];
    if (name === "open") continue;
    if (!twin) {
      out[name] = refused(`fs.promises.${name}`);
      continue;
    }
    // A FileHandle stands for its descriptor wherever fs.promises takes one (writeFile, appendFile).
    out[name] = (...args: unknown[]) => {
      // A bare descriptor is no path to fs.promises: Node's own rejects it before it touches the disk.
      if (PATHS_ONLY.has(name) && typeof args[0] === "number") return (realFs.promises as unknown as Record<string, AnyFn>)[name]!(...args);
      return promised(`fs.promises.${name}`, () => twin(...args.map((a) => (a instanceof RecordedFileHandle ? a.fd : a))));
    };
  }
  out.open = (file: unknown, flags?: unknown, mode?: unknown) => promised("fs.promises.open", () => new RecordedFileHandle(sync.openSync!(file, flags ?? "r", mode), sync, promised));
  return out;
}

/** What `fs.promises.open` gives: a FileHandle whose every change to the disk goes through the recorded calls. */
export class RecordedFileHandle {
  private closed = false;

  constructor(
    private readonly descriptor: number,
    private readonly calls: SyncFs,
    private readonly promised: <T>(name: string, work: () => T) => Promise<T>,
  ) {}

  get fd(): number {
    return this.closed ? -1 : this.descriptor;
  }

  write(data: unknown, ...rest: unknown[]): Promise<{ bytesWritten: number; buffer: unknown }> {
    return this.promised("FileHandle.write", () => ({ bytesWritten: this.calls.writeSync!(this.descriptor, data, ...rest), buffer: data }));
  }

  writev(buffers: NodeJS.ArrayBufferView[], position?: number | null): Promise<{ bytesWritten: number; buffers: NodeJS.ArrayBufferView[] }> {
    return this.promised("FileHandle.writev", () => ({ bytesWritten: this.calls.writevSync!(this.descriptor, buffers, position), buffers }));
  }

  /** Writes all of `data` from the current position, as Node's FileHandle.writeFile does: it never reads `flush`, so it makes no fsync. */
  writeFile(data: unknown, options?: unknown): Promise<void> {
    return this.writeAll("FileHandle.writeFile", data, options);
  }

  appendFile(data: unknown, options?: unknown): Promise<void> {
    return this.writeAll("FileHandle.appendFile", data, options);
  }

  /** writeFile and appendFile, told as `name`: a target's third argument never reaches the name. */
  private writeAll(name: string, data: unknown, options: unknown): Promise<void> {
    const { flush: _, ...rest } = options && typeof options === "object" ? (options as { flush?: unknown }) : { encoding: options ?? undefined };
    return this.promised(name, () => this.calls.writeFileSync!(this.descriptor, data, rest));
  }

  truncate(length = 0): Promise<void> {
    return this.promised("FileHandle.truncate", () => this.calls.ftruncateSync!(this.descriptor, length));
  }

  sync(): Promise<void> {
    return this.promised("FileHandle.sync", () => this.calls.fsyncSync!(this.descriptor));
  }

  datasync(): Promise<void> {
    return this.promised("FileHandle.datasync", () => this.calls.fdatasyncSync!(this.descriptor));
  }

  chmod(mode: number): Promise<void> {
    return this.promised("FileHandle.chmod", () => this.calls.fchmodSync!(this.descriptor, mode));
  }

  chown(uid: number, gid: number): Promise<void> {
    return this.promised("FileHandle.chown", () => this.calls.fchownSync!(this.descriptor, uid, gid));
  }

  utimes(atime: unknown, mtime: unknown): Promise<void> {
    return this.promised("FileHandle.utimes", () => this.calls.futimesSync!(this.descriptor, atime, mtime));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return this.promised("FileHandle.close", () => this.calls.closeSync!(this.descriptor));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  stat(options?: realFs.StatOptions): Promise<unknown> {
    return this.promised("FileHandle.stat", () => realFs.fstatSync(this.descriptor, options));
  }

  read(buffer?: unknown, ...rest: unknown[]): Promise<{ bytesRead: number; buffer: unknown }> {
    return this.promised("FileHandle.read", () => {
      const options = buffer && !ArrayBuffer.isView(buffer) ? (buffer as { buffer?: NodeJS.ArrayBufferView; offset?: number; length?: number; position?: number | null }) : {};
      const target = ((ArrayBuffer.isView(buffer) ? buffer : options.buffer) ?? Buffer.alloc(16384)) as NodeJS.ArrayBufferView;
      const [offset = options.offset ?? 0, length = options.length ?? target.byteLength - (offset as number), position = options.position ?? null] = ArrayBuffer.isView(buffer) ? rest : [];
      return { bytesRead: realFs.readSync(this.descriptor, target, offset as number, length as number, position as number | null), buffer: target };
    });
  }

  readv(buffers: NodeJS.ArrayBufferView[], position?: number | null): Promise<{ bytesRead: number; buffers: unknown }> {
    return this.promised("FileHandle.readv", () => ({ bytesRead: realFs.readvSync(this.descriptor, buffers, position ?? undefined), buffers }));
  }

  readFile(options?: unknown): Promise<unknown> {
    return this.promised("FileHandle.readFile", () => realFs.readFileSync(this.descriptor, options as never));
  }

  // The handle's streams and web streams: refused, with a word on what to use instead.
  createWriteStream = refused("FileHandle.createWriteStream");
  createReadStream = refused("FileHandle.createReadStream");
  readLines = refused("FileHandle.readLines");
  readableWebStream = refused("FileHandle.readableWebStream");
}
