// The time a check has had of the machine. A check's deadline bounds what the target does, not
// how busy the machine is: a second of wall time counts in full while the machine had a processor
// to spare, and in proportion to a runnable thread's share of the processors while every one was
// taken (other grades, other jobs on a shared runner, the grade's own other checks). A target that
// hangs still meets the deadline; a correct one starved by the machine does not.
//
// Read from /proc/stat (Linux): the processors' busy share and the threads runnable now, sampled
// a few times a second while any clock runs. Elsewhere every second counts in full. In a container
// these are the host's figures; a busy host then only makes the clock slower, never faster.
import os from "node:os";
import { readMachine, shareBetween, type MachineReading } from "../sandbox/busy-machine.js";

/** How often the machine is read while a clock runs. */
const SAMPLE_MS = 250;

/** A clock of the machine's time given to one check: started now. */
export class FairClock {
  private readonly startedWall: number;
  private readonly startedFair: number;

  private constructor() {
    clocks++;
    sampleSoon();
    this.startedWall = Date.now();
    this.startedFair = fairNow();
  }

  /** Starts a clock; call `stop()` when the check is over. */
  static start(): FairClock {
    return new FairClock();
  }

  /** Milliseconds of the machine's time since the start: never more than `wallMs()`. */
  fairMs(): number {
    return Math.min(this.wallMs(), fairNow() - this.startedFair);
  }

  /** Milliseconds of wall time since the start. */
  wallMs(): number {
    return Date.now() - this.startedWall;
  }

  /** Stops sampling for this clock (the machine is no longer read once none runs). */
  stop(): void {
    if (--clocks === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }
}

/**
 * What `work` gives, or `late()` once the clock's machine time passes `fairMs` or its wall time
 * passes `wallMs` (the work is then abandoned). Fair time never runs ahead of wall time, so the
 * timer is set for the machine time left and, when it fires early by the wall, set again.
 */
export async function withinDeadline<T>(work: Promise<T>, limit: { clock: Pick<FairClock, "fairMs" | "wallMs">; fairMs: number; wallMs: number }, late: (why: "deadline" | "machine") => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const { clock } = limit;
  const deadline = new Promise<T>((resolve) => {
    const check = () => {
      if (clock.fairMs() >= limit.fairMs) return resolve(late("deadline"));
      if (clock.wallMs() >= limit.wallMs) return resolve(late("machine"));
      timer = setTimeout(check, Math.max(50, Math.min(limit.fairMs - clock.fairMs(), limit.wallMs - clock.wallMs())));
    };
    check();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

let clocks = 0;
let timer: NodeJS.Timeout | undefined;
/** The last reading of the machine, and when it was taken. */
let last: { at: number; reading: MachineReading | null } = { at: Date.now(), reading: null };
/** The machine's time counted up to `last.at`, in milliseconds. */
let counted = 0;
/** The share measured over the last stretch: the estimate for the stretch since. */
let share = 1;

/** Machine milliseconds counted so far. */
function fairNow(): number {
  return counted + (Date.now() - last.at) * share;
}

/** Starts reading the machine, from a fresh reading, when no clock was running. */
function sampleSoon(): void {
  if (timer) return;
  counted = fairNow();
  last = { at: Date.now(), reading: readMachine() };
  timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
}

function sample(): void {
  const now = Date.now();
  const reading = readMachine();
  share = last.reading && reading ? shareBetween(last.reading, reading, os.availableParallelism()) : 1;
  counted += (now - last.at) * share;
  last = { at: now, reading };
}

