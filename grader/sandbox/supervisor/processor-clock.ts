// The time a check has had, counted the way every limit of the grader counts: the processor time
// of the processes that run its target's code (their own and their programs'), and the wall time
// while one the check waits on is blocked (asleep in a system call with nothing below it working:
// waiting uses no processor, so its limit is the wall clock's). Time the check's processes spend
// waiting for a processor behind other work does not count, nor the grader's own work between
// calls. So a check that loops or sleeps meets its deadline after the same work on a quiet machine
// and on a busy one; a correct one starved by the machine does not.
//
// Read from /proc (Linux) four times a second while the clock runs, with what the process-state
// reader tells of each process. A process that ends between two readings counts the time of the
// readings it had (a short session adds little). Where /proc is not there (macOS), the wall time
// counts while any of the check's processes is waited on.
import fs from "node:fs";
import { activityBetween, readProcess, type ProcessReading } from "./process-state.js";

/** Whether processes can be read here (Linux); elsewhere the wall time counts while one is waited on. */
const READABLE = fs.existsSync("/proc/self/stat");

/** How often the check's processes are read. */
const SAMPLE_MS = 250;

/** A process a clock counts: its id (undefined before it has one), and whether the check waits on it now. */
export interface Counted {
  pid(): number | undefined;
  waitedOn(): boolean;
}

/** A clock of the time one check has had: started now. */
export class ProcessorClock {
  private readonly counted = new Map<Counted, ProcessReading | null>();
  private readonly startedWall = performance.now();
  private counts = 0;
  private lastAt = performance.now();
  private readonly timer: NodeJS.Timeout;

  private constructor() {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** Starts a clock; call `stop()` when the check is over. */
  static start(): ProcessorClock {
    return new ProcessorClock();
  }

  /** Counts `it` from now until the returned function is called (it has ended, or is about to be killed). */
  count(it: Counted): () => void {
    this.counted.set(it, null);
    return () => {
      if (!this.counted.has(it)) return;
      // Its last stretch counts before it goes.
      this.sample();
      this.counted.delete(it);
    };
  }

  /** Milliseconds the check has had so far, as last read. */
  usedMs(): number {
    return this.counts;
  }

  /** Milliseconds of wall time since the start. */
  wallMs(): number {
    return performance.now() - this.startedWall;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    const now = performance.now();
    const stretch = now - this.lastAt;
    this.lastAt = now;
    let used = 0;
    let blocked = false;
    for (const [it, last] of this.counted) {
      const pid = it.pid();
      const reading = pid === undefined ? null : readProcess(pid, { mainThreadOnly: true });
      if (!reading) {
        // Not readable here: the time counts while it is waited on. Ended (Linux): it has nothing more to count.
        if (!READABLE && it.waitedOn()) blocked = true;
        continue;
      }
      if (last) {
        used += Math.max(0, reading.cpuMs + reading.programsCpuMs - last.cpuMs - last.programsCpuMs);
        if (it.waitedOn() && activityBetween(last, reading) === "blocked") blocked = true;
      }
      this.counted.set(it, reading);
    }
    this.counts += blocked ? Math.max(used, stretch) : used;
  }
}

/**
 * What `work` gives, or `late()` once the clock's counted time passes `usedMs` or its wall time
 * passes `wallMs` (the work is then abandoned). Looked at a few times a second.
 */
export async function withinDeadline<T>(work: Promise<T>, limit: { clock: Pick<ProcessorClock, "usedMs" | "wallMs">; usedMs: number; wallMs: number }, late: (why: "deadline" | "machine") => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const { clock } = limit;
  const deadline = new Promise<T>((resolve) => {
    const check = () => {
      if (clock.usedMs() >= limit.usedMs) return resolve(late("deadline"));
      if (clock.wallMs() >= limit.wallMs) return resolve(late("machine"));
      timer = setTimeout(check, Math.max(50, Math.min(SAMPLE_MS, limit.wallMs - clock.wallMs())));
    };
    check();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
