// What a batch shows while it runs, on stderr: a bar redrawn in place on a terminal, one line per
// finished submission anywhere else (a log, CI).
import { steadyNow } from "../../steady-clock.js";

export interface Finished {
  submission: string;
  /** "85/100, bonus 20/40", or the error. */
  outcome: string;
  failed: boolean;
}

const WIDTH = 24;

/** Shows how far a batch of `total` submissions is. */
export class Progress {
  private done = 0;
  private failures = 0;
  private readonly started = steadyNow();
  /** Redraws the bar every second, so elapsed time moves while long grades run. */
  private readonly ticker?: NodeJS.Timeout;

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    if (!this.stream.isTTY) return;
    this.draw();
    this.ticker = setInterval(() => this.draw(), 1000).unref();
  }

  /** Counts a finished submission and shows it. */
  finished(f: Finished): void {
    this.done++;
    if (f.failed) this.failures++;
    if (this.stream.isTTY) {
      if (f.failed) this.stream.write(`\r\x1b[K${f.submission}: ${f.outcome}\n`);
      this.draw();
    } else {
      this.stream.write(`[${this.done}/${this.total}] ${f.submission}: ${f.outcome} (${clock(steadyNow() - this.started)} elapsed)\n`);
    }
  }

  /** Ends the bar's line. */
  close(): void {
    clearInterval(this.ticker);
    if (this.stream.isTTY) this.stream.write("\n");
  }

  private draw(): void {
    const elapsed = steadyNow() - this.started;
    const filled = this.total === 0 ? WIDTH : Math.round((this.done / this.total) * WIDTH);
    const eta = this.done === 0 ? "?" : clock((elapsed / this.done) * (this.total - this.done));
    const bar = "#".repeat(filled) + "-".repeat(WIDTH - filled);
    this.stream.write(`\r\x1b[K[${bar}] ${this.done}/${this.total}  elapsed ${clock(elapsed)}  ETA ${eta}  errors ${this.failures}`);
  }
}

/** "1:05" for 65 s, "1:02:03" past an hour. */
export function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : `${Math.floor(s / 60)}:${two(s % 60)}`;
}
