// Where the recording fs writes what it sees: one recorder per scenario, swapped in by the host.
import fs from "node:fs";
import path from "node:path";
import type { Effect, FsOp, Trace, TraceEntry } from "../../crash/model.js";
import type { DiskFaults } from "./disk-faults.js";

/** Called before each operation (with the real descriptor of a write); may kill the process. */
export type BeforeOp = (op: FsOp, realFd?: number) => void;

/** The most one scenario's trace holds, so a target that calls the file system without end cannot exhaust the grader's memory. */
export const RECORD_LIMITS = { entries: 100_000, bytes: 64 * 1024 * 1024 };

/** "100,000 file-system calls or 64 MiB written": the record limits in words. */
export const RECORD_LIMITS_TEXT = `${RECORD_LIMITS.entries.toLocaleString("en-US")} file-system calls or ${RECORD_LIMITS.bytes / 1024 / 1024} MiB written`;

/** Collects the trace of one scenario whose folder is `root`. */
export class Recorder {
  readonly entries: TraceEntry[] = [];
  /** The lab's side effects, kept even when nothing else is. */
  readonly effects: Effect[] = [];
  truncated = false;
  private bytesKept = 0;
  private readonly fdIds = new Map<number, number>();
  private nextFdId = 1;
  /** Incremented while inside a wrapped call, so nested calls keep the outer call's name. */
  depth = 0;
  api = "";
  /** Called before a call that only reads (`readFileSync`, `readdirSync`, `existsSync`, ...), with the path it reads. */
  beforeRead?: (api: string, path: string) => void;
  /**
   * The package whose code makes the call that starts now ("write-file-atomic"), or undefined for
   * the target's own code; set only for a target that bundles packages.
   */
  callerOf?: () => string | undefined;
  /** The disk's faults, once a scenario turned them on. */
  faults: DiskFaults | null = null;
  /** The stored path each logical descriptor was opened at. */
  private readonly fdPaths = new Map<number, string>();
  /** The root as the disk spells it (links resolved), once a path with ".." needed it. */
  private realRoot?: string;

  readonly limits: typeof RECORD_LIMITS;
  readonly beforeOp?: BeforeOp;
  /** When false, nothing is kept: descriptors are still tracked so leftovers can be closed. */
  readonly keep: boolean;

  constructor(
    readonly root: string,
    opts: { limits?: typeof RECORD_LIMITS; beforeOp?: BeforeOp; keep?: boolean } = {},
  ) {
    this.limits = opts.limits ?? RECORD_LIMITS;
    this.beforeOp = opts.beforeOp;
    this.keep = opts.keep ?? true;
  }

  /** Stores a path as "@/<relative>" inside the root, or as it is outside. */
  store(p: string): string {
    const abs = this.resolve(p);
    if (abs === this.root) return "@";
    return abs.startsWith(this.root + path.sep) ? "@/" + abs.slice(this.root.length + 1) : abs;
  }

  /**
   * The absolute path the kernel reaches by `p`. path.resolve cleans "link/.." as text, where the
   * kernel goes up from wherever the link leads: a path that goes up has its part up to the last
   * ".." resolved on the disk (and kept inside the root when the root itself is reached by a link).
   */
  private resolve(p: string): string {
    const parts = p.split(path.sep);
    const up = parts.lastIndexOf("..");
    if (up === -1) return path.resolve(p);
    try {
      // The native realpath: the JavaScript one cleans ".." as text first.
      const head = fs.realpathSync.native(parts.slice(0, up + 1).join(path.sep) || path.sep);
      this.realRoot ??= fs.realpathSync.native(this.root);
      const inRoot = head === this.realRoot || head.startsWith(this.realRoot + path.sep) ? this.root + head.slice(this.realRoot.length) : head;
      return path.resolve(inRoot, ...parts.slice(up + 1));
    } catch {
      return path.resolve(p); // a folder on the way is missing: the call fails as it is
    }
  }

  /** Gives an open file descriptor a logical id (real numbers are reused); `stored` is the path it was opened at. */
  openedFd(fd: number, stored: string): number {
    const id = this.nextFdId++;
    this.fdIds.set(fd, id);
    this.fdPaths.set(id, stored);
    return id;
  }

  /** The stored path a logical descriptor was opened at. */
  pathOf(id: number): string {
    return this.fdPaths.get(id) ?? `descriptor ${id}`;
  }

  /** A logical id for an open the grader reconstructs (a command's effect), with no real descriptor behind it. */
  syntheticFd(): number {
    return this.nextFdId++;
  }

  /** The real descriptor behind a logical id, while it is open; undefined for one closed or synthetic. */
  realFdOf(id: number): number | undefined {
    for (const [fd, known] of this.fdIds) if (known === id) return fd;
    return undefined;
  }

  /** The logical id of a descriptor opened through the recorder, or undefined. */
  fdId(fd: number): number | undefined {
    return this.fdIds.get(fd);
  }

  closedFd(fd: number): void {
    this.fdIds.delete(fd);
  }

  /** Appends an entry unless the limits are reached (then the trace is marked truncated). */
  push(entry: TraceEntry): void {
    if (entry.kind === "effect") this.effects.push(entry);
    if (!this.keep) return;
    const size = entry.kind === "write" ? entry.bytes.byteLength : 0;
    if (this.entries.length >= this.limits.entries || this.bytesKept + size > this.limits.bytes) {
      this.truncated = true;
      return;
    }
    this.bytesKept += size;
    this.entries.push(entry);
  }

  /** Closes descriptors the target opened and never closed (a real process exit would). */
  closeLeftovers(): void {
    for (const fd of this.fdIds.keys()) {
      try {
        fs.closeSync(fd);
      } catch {}
    }
    this.fdIds.clear();
  }

  mark(label: string): void {
    this.push({ kind: "mark", label });
  }

  trace(): Trace {
    return { entries: this.entries, truncated: this.truncated };
  }
}
