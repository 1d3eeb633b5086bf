// A timer that tells a stuck process from a starved one: when it fires, a process that is
// runnable but got little CPU time since the timer started, or any process while every processor
// was busy all along, was waiting for a busy machine, not stuck, so it gets the time again (a few
// times at most). Reads /proc (Linux); elsewhere it is a plain timer.
import fs from "node:fs";
import { processStat, readMachine, saturatedSince, type ProcessStat } from "../busy-machine.js";

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
  let machine = readMachine();
  let timer: NodeJS.Timeout;
  const check = () => {
    const now = processCpu(pid());
    const starved = (now && since && now.state === "R" && now.cpuMs - since.cpuMs < ms / 4) || saturatedSince(machine);
    if (starved && extensions++ < EXTENSIONS) {
      since = now;
      machine = readMachine();
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
      machine = readMachine();
      timer = setTimeout(check, ms);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** The process's state and processor time, or null while it has no pid or cannot be read. */
function processCpu(pid: number | undefined): ProcessStat | null {
  return pid === undefined ? null : processStat(pid);
}

/** SIGKILLs `pids` and every process below them that is still their descendant (Linux), quietly. */
export function killTree(...pids: (number | undefined)[]): void {
  pids = pids.filter((pid) => pid === undefined || stillRunning(pid));
  const all: number[] = [];
  const walk = (pid: number) => {
    all.push(pid);
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) walk(Number(child));
    } catch {}
  };
  for (const pid of pids) if (pid) walk(pid);
  for (const pid of all.reverse()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}

/** False for a process id that has ended (or was reused by a program other than the grader's host). */
function stillRunning(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("host.cjs") || fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sh";
  } catch {
    return process.platform !== "linux";
  }
}
