// Writes a grade's live progress (progress.ts) where the scoreboard goes. On a terminal: a block
// of lines (progress-lines.ts) redrawn in place on every event and every second, erased when the
// grade ends so that the scoreboard is printed as it would be without it. Not on a terminal: one
// plain line per deliverable as its score becomes known, and no control characters.
import type { CheckMeta } from "../../contract/verdict.js";
import type { CheckEvents } from "../reporter.js";
import { outputWidth } from "../layout.js";
import { liveLines, plainLine } from "./progress-lines.js";
import type { GradeProgress } from "./progress.js";

/** Where progress is written: a terminal (isTTY, columns) or anything else. */
export type ProgressStream = Pick<NodeJS.WriteStream, "write"> & { isTTY?: boolean; columns?: number };

/** How often the live line is redrawn with nothing new but the time. */
const TICK_MS = 1000;

export class LiveOutput implements CheckEvents {
  /** Lines of the block now on the terminal. */
  private drawn = 0;
  /** Rows already written as plain lines. */
  private written = 0;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly progress: GradeProgress,
    private readonly stream: ProgressStream,
    private readonly opts: { header: string; color: boolean },
  ) {
    if (this.stream.isTTY) {
      this.timer = setInterval(() => this.update(), TICK_MS);
      this.timer.unref();
    }
    this.update();
  }

  fromCache(id: string, metas: CheckMeta[]): void {
    this.progress.fromCache(id, metas);
    this.update();
  }

  started(checkId: string): void {
    this.progress.started(checkId);
    this.update();
  }

  crashStates(checkId: string, count: number): void {
    this.progress.crashStates(checkId, count);
    this.update();
  }

  decided(meta: CheckMeta): void {
    this.progress.decided(meta);
    this.update();
  }

  /** The grade ended (or stopped): the block is erased, and what follows starts on a line of its own. */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    if (this.stream.isTTY) this.stream.write(this.erase());
    else if (this.written > 0) this.stream.write("\n");
  }

  private update(): void {
    if (this.ended) return;
    if (!this.stream.isTTY) {
      const rows = this.progress.decidedRows();
      for (; this.written < rows.length; this.written++) this.stream.write(`${plainLine(rows[this.written]!)}\n`);
      return;
    }
    // Cut to the terminal's own columns: a line that wrapped would leave its second half behind.
    // A terminal that gives no columns (0, as some pseudo-terminals do) is laid out as a pipe is.
    const width = this.stream.columns ? Math.min(outputWidth(this.stream), this.stream.columns) : outputWidth(this.stream);
    const lines = liveLines(this.progress, { ...this.opts, width });
    const left = Math.max(0, this.drawn - lines.length);
    this.stream.write(up(this.drawn) + lines.map((l) => `${CLEAR_LINE}${l}\n`).join("") + blank(left));
    this.drawn = lines.length;
  }

  /** Blanks the block's lines, the cursor left where the block began. */
  private erase(): string {
    const text = up(this.drawn) + blank(this.drawn);
    this.drawn = 0;
    return text;
  }
}

/**
 * Each line is cleared on its own, never the screen from the cursor down: a terminal that keeps
 * what a clear of the whole screen removed (tmux does) would fill its scrollback with every frame.
 */
const CLEAR_LINE = "\x1b[2K";

/** To the start of the line `n` lines up. */
function up(n: number): string {
  return n > 0 ? `\x1b[${n}A\r` : "";
}

/** Clears the `n` lines from the cursor's down, and comes back. */
function blank(n: number): string {
  return n > 0 ? `${CLEAR_LINE}\n`.repeat(n) + up(n) : "";
}
