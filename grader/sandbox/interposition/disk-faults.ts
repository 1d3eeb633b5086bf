// A disk that says no, inside the sandbox host: once a scenario turns faults on, every write, file
// creation and fsync the target makes is a fault point, counted by kind, and the one the grader
// chose fails the way a real disk fails:
// - a short write: `write(2)` may write only a prefix and return its length (POSIX allows it);
// - a full disk: a write gets part of its bytes in and returns that count, and from then on every
//   write and every new file or folder fails with ENOSPC until the call ends (space is back for the
//   next call); or a new file's creation is the first thing to fail;
// - an I/O error: `fsync` fails with EIO, makes nothing durable, and a later fsync of the same
//   file says nothing of the lost bytes (the power model keeps them lost, see crash/power-loss.ts).
import type { Fault, FaultPoint, FaultReport } from "../messages/scenario.js";

/** What happens to one write: `bytes` of it reach the file (and are returned), or `error` is thrown before any does. */
export type WriteOutcome = { bytes: number } | { error: NodeJS.ErrnoException };

/** Counts the fault points of one call and fails the chosen one; with no fault chosen, only counts (a survey). */
export class DiskFaults {
  armed = true;
  private readonly counts = { write: 0, create: 0, fsync: 0 };
  private full = false;
  private readonly points: FaultPoint[] = [];
  private injected?: FaultPoint;

  constructor(private readonly fault?: Fault) {}

  /** Before a write of `length` bytes to `file` (by `api`): null to write them all, else what happens instead. */
  write(api: string, file: string, length: number): WriteOutcome | null {
    if (!this.armed || length === 0) return null;
    const point = this.point({ on: "write", api, file, bytes: length });
    if (this.full) return { error: errno("ENOSPC", "write") };
    const f = this.fault;
    if (f?.kind === "short-write" && f.index === point.index) return this.inject(point, { bytes: f.bytes });
    if (f?.kind === "disk-full" && f.on === "write" && f.index === point.index) {
      this.full = true;
      return this.inject(point, f.bytes > 0 ? { bytes: f.bytes } : { error: errno("ENOSPC", "write") });
    }
    return null;
  }

  /** Before a new file, folder or link is made at `file`: null to make it, else the error to throw. */
  create(api: string, file: string, syscall: string, realPath: string): NodeJS.ErrnoException | null {
    if (!this.armed) return null;
    const point = this.point({ on: "create", api, file });
    const error = errno("ENOSPC", syscall, realPath);
    if (this.full) return error;
    const f = this.fault;
    if (f?.kind === "disk-full" && f.on === "create" && f.index === point.index) {
      this.full = true;
      return this.inject(point, { error }).error;
    }
    return null;
  }

  /** Before an fsync of `file`: null to sync it, else the error to throw. */
  fsync(api: string, file: string): NodeJS.ErrnoException | null {
    if (!this.armed) return null;
    const point = this.point({ on: "fsync", api, file });
    const f = this.fault;
    if (f?.kind === "failed-fsync" && f.index === point.index) return this.inject(point, { error: errno("EIO", "fsync") }).error;
    return null;
  }

  /** Every fault point met, in order, and the one that failed. */
  report(): FaultReport {
    return { points: this.points, injected: this.injected };
  }

  private point(p: Omit<FaultPoint, "index">): FaultPoint {
    const point = { ...p, index: this.counts[p.on]++ };
    this.points.push(point);
    return point;
  }

  private inject<T>(point: FaultPoint, outcome: T): T {
    this.injected = point;
    return outcome;
  }
}

const MESSAGES: Record<string, [number, string]> = {
  ENOSPC: [-28, "no space left on device"],
  EIO: [-5, "i/o error"],
};

/** An error as Node's fs throws it: "ENOSPC: no space left on device, open '/x'", with errno, code, syscall and path. */
function errno(code: "ENOSPC" | "EIO", syscall: string, file?: string): NodeJS.ErrnoException {
  const [number, words] = MESSAGES[code]!;
  const error: NodeJS.ErrnoException = new Error(`${code}: ${words}, ${syscall}${file ? ` '${file}'` : ""}`);
  return Object.assign(error, { errno: number, code, syscall, ...(file ? { path: file } : {}) });
}
