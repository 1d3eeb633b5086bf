// A timer that tells a stuck process from a starved one: when it fires, a process that is
// runnable but got little CPU time since the timer started was waiting for a busy machine, not
// stuck, so it gets the time again (a few times at most). Reads /proc (Linux); elsewhere it is a
// plain timer.
import fs from "node:fs";

const EXTENSIONS = 3;

export interface Watchdog {
  /** Starts the time again (the process made progress). */
  reset(): void;
  stop(): void;
}

/** Calls `expire` once the process `pid()` has been stuck for `ms`. */
export function watchdog(pid: () => number | undefined, ms: number, expire: () => void): Watchdog {
  let extensions = 0;
  let since = processCpu(pid());
  let timer: NodeJS.Timeout;
  const check = () => {
    const now = processCpu(pid());
    if (now && since && now.state === "R" && now.ms - since.ms < ms / 4 && extensions++ < EXTENSIONS) {
      since = now;
      timer = setTimeout(check, ms);
      return;
    }
    expire();
  };
  timer = setTimeout(check, ms);
  return {
    reset() {
      clearTimeout(timer);
      since = processCpu(pid());
      timer = setTimeout(check, ms);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** A process's scheduling state ("R" runnable, "S" sleeping, ...) and the CPU time it has used, or null. */
function processCpu(pid: number | undefined): { state: string; ms: number } | null {
  if (pid === undefined) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, ms: (Number(fields[11]) + Number(fields[12])) * 10 };
  } catch {
    return null;
  }
}
