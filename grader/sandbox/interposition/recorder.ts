// Where the recording fs writes what it sees: one recorder per scenario, swapped in by the host.
import fs from "node:fs";
import path from "node:path";
import type { Effect, FsOp, Trace, TraceEntry } from "../../crash/model.js";
import type { DiskFaults } from "./disk-faults.js";
import type { Footprint } from "../../crash/shared-recovery.js";
import { opensEmpty, opensToRead } from "../../crash/trace.js";

/** Called before each operation (with the real descriptor of a write); may kill the process. */
export type BeforeOp = (op: FsOp, realFd?: number) => void;

/** The most one scenario's trace holds, so a target that calls the file system without end cannot exhaust the grader's memory. */
export const RECORD_LIMITS = { entries: 100_000, bytes: 64 * 1024 * 1024 };

/**
 * "100,000 file-system calls or 64 MiB written": the record limits in words. A function, not a
 * constant: this module is in every sandbox process, and a first toLocaleString there costs about
 * 20 ms of processor (loading the locale's data) in each of a grade's dozens of processes.
 */
export function recordLimitsText(): string {
  return `${RECORD_LIMITS.entries.toLocaleString("en-US")} file-system calls or ${RECORD_LIMITS.bytes / 1024 / 1024} MiB written`;
}

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
  /** Set while a grader's stand-in saves (sandbox/runtime/target/stand-in-module.ts): a real kill counts the save as one change, made whole. */
  standInSave: { counted: boolean } | null = null;
  /** The disk's faults, once a scenario turned them on. */
  faults: DiskFaults | null = null;
  /** The stored path each logical descriptor was opened at. */
  private readonly fdPaths = new Map<number, string>();
  /** The paths the scenario named, and the folders it listed: what its run depended on (see crash/shared-recovery.ts). */
  private readonly looked = { paths: new Set<string>(), entries: new Set<string>(), listings: new Set<string>() };
  /** Paths whose content the run made itself (it truncated or created the file there): what they held before is not looked at by reading them. */
  private readonly madeByRun = new Set<string>();
  /** Why the run may depend on more than its footprint (it ran a program, read a descriptor of its own making...), once it may. */
  private beyondFootprint: string | null = null;
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

  /** Notes that the run looked at the stored path `stored`: all of what is there, only (`entry`) whether something is there and as what, or (`listing`) the names in it. */
  lookedAt(stored: string, depth: "whole" | "entry" | "listing" = "whole"): void {
    if (stored !== "@" && !stored.startsWith("@/")) return this.lookedBeyond(`it named ${stored}, outside the scenario`);
    // Reading a file the run emptied or made reads what the run wrote: only its being there is the disk's.
    if (depth === "whole" && this.madeByRun.has(stored)) depth = "entry";
    (depth === "listing" ? this.looked.listings : depth === "entry" ? this.looked.entries : this.looked.paths).add(stored);
  }

  /** Notes that the run looked at what the real descriptor `fd` is open on. */
  lookedAtFd(fd: number): void {
    const id = this.fdIds.get(fd);
    const stored = id === undefined ? undefined : this.fdPaths.get(id);
    if (stored === undefined) this.lookedBeyond(`it read descriptor ${fd}, not one it opened`);
    else this.lookedAt(stored);
  }

  /** Notes that the run may have seen the disk in a way its footprint does not hold (a program it ran, a glob, a watch). */
  lookedBeyond(why: string): void {
    this.beyondFootprint ??= why;
  }

  /** What the run looked at, or null when it may have seen more than a footprint holds. */
  recoveryFootprint(): Footprint | null {
    if (this.beyondFootprint !== null || this.faults) return null;
    return { paths: [...this.looked.paths].sort(), entries: [...this.looked.entries].sort(), listings: [...this.looked.listings].sort() };
  }

  /** Appends an entry unless the limits are reached (then the trace is marked truncated). */
  push(entry: TraceEntry): void {
    if (entry.kind === "effect") this.effects.push(entry);
    else if (entry.kind !== "mark") this.madeBy(entry);
    if (!this.keep) return;
    const size = entry.kind === "write" ? entry.bytes.byteLength : 0;
    if (this.entries.length >= this.limits.entries || this.bytesKept + size > this.limits.bytes) {
      this.truncated = true;
      return;
    }
    this.bytesKept += size;
    this.entries.push(entry);
  }

  /**
   * What an operation looks at, told before it runs (one that fails has looked too: its error
   * tells what was there): a file opened to read is read whole; one opened only to write, a
   * name removed, made or truncated, and a rename's new name are looked at only for whether they
   * are there and as what (a folder removed, or renamed over, also for what it names); a rename
   * moves what its old name holds, which is then read under the new one. A write through a
   * descriptor looks at nothing: what it changes is read back, if at all, by a read.
   */
  lookedAtOp(op: FsOp): void {
    switch (op.kind) {
      case "open":
        this.lookedAt(op.path, opensToRead(op.flags) ? "whole" : "entry");
        return;
      case "rename":
        this.lookedAt(op.from);
        this.lookedAt(op.to, "entry");
        this.lookedAt(op.to, "listing");
        return;
      case "rmdir":
        this.lookedAt(op.path, "entry");
        this.lookedAt(op.path, "listing");
        return;
      case "unlink":
      case "mkdir":
      case "truncate":
      case "attr":
        if (op.path !== undefined) this.lookedAt(op.path, "entry");
        return;
      case "link":
      case "symlink":
        this.lookedBeyond(`it made a ${op.kind === "link" ? "link" : "symbolic link"}`);
        return;
      default:
        return; // write, ftruncate, fsync, close: through a descriptor whose open was looked at
    }
  }

  /** After an operation succeeded: which files now hold only what the run wrote (see `madeByRun`). */
  private madeBy(op: FsOp): void {
    if (op.kind === "open" && opensEmpty(op.flags)) this.madeByRun.add(op.path);
    else if (op.kind === "unlink") this.madeByRun.delete(op.path);
    else if (op.kind === "rename") {
      const made = this.madeByRun.delete(op.from);
      for (const p of this.madeByRun) if (p === op.to || p.startsWith(op.to + "/") || p.startsWith(op.from + "/")) this.madeByRun.delete(p);
      if (made) this.madeByRun.add(op.to);
    }
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
