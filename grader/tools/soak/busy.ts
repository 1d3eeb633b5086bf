// Other work on the machine, for `npm run soak -- --load`: processes that keep every processor
// busy, and the load average read while they run.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

/** Starts `perCore` spinning processes per processor, at the grade's own priority; `stop()` ends them. */
export function keepProcessorsBusy(perCore: number): { count: number; stop: () => Promise<void> } {
  const spinners: ChildProcess[] = Array.from({ length: perCore * os.availableParallelism() }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return {
    count: spinners.length,
    stop: async () => {
      await Promise.all(spinners.map((s) => new Promise<void>((resolve) => (s.exitCode !== null || s.signalCode !== null ? resolve() : (s.once("exit", () => resolve()), s.kill("SIGKILL"))))));
    },
  };
}

/** Reads the 1-minute load average every 5 s until stopped (Linux; elsewhere it has no readings). */
export class LoadMeter {
  private readonly readings: number[] = [];
  private readonly timer = setInterval(() => this.read(), 5_000);

  constructor() {
    this.timer.unref();
  }

  /** Stops reading. */
  stop(): void {
    clearInterval(this.timer);
  }

  /** The median, least and most of the readings, or null when there were none. */
  summary(): { median: number; min: number; max: number } | null {
    if (this.readings.length === 0) return null;
    const sorted = [...this.readings].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
  }

  private read(): void {
    try {
      this.readings.push(Number(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]));
    } catch {}
  }
}
