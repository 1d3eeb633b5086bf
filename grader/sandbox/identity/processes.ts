// The processes of one user, read from /proc, and how to end them all: by user id, not by process
// tree, so a process that left its tree (a double fork, a new session) is found as well.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { steadyNow } from "../../steady-clock.js";

/** The live processes (zombies left out) by user id: each under its real, effective and saved user id. One read of /proc. */
export function processesByUser(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const status = liveStatus(entry);
    if (status === null) continue;
    const ids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
    for (const uid of new Set(ids?.slice(1, 4).map(Number))) {
      if (!out.has(uid)) out.set(uid, []);
      out.get(uid)!.push(Number(entry));
    }
  }
  return out;
}

/** Process ids of the live processes whose real, effective or saved user id is `uid` (zombies left out). */
export function processesOf(uid: number): number[] {
  return processesByUser().get(uid) ?? [];
}

/**
 * Ends every process of `uid` but `except` (the caller must be root or that user, and not be one
 * of them), reading the list again until it is empty. With nothing to spare, `kill -9 -1` run as
 * that user first signals all of them in one system call, so one that forks meanwhile is caught too.
 */
export function killEveryProcessOf(user: { uid: number; gid: number }, except: number[] = []): void {
  endAndWait(
    () => processesOf(user.uid).filter((pid) => !except.includes(pid)),
    (pids) => {
      if (except.length === 0 && process.getuid?.() === 0) spawnSync("/bin/sh", ["-c", "kill -9 -1"], { uid: user.uid, gid: user.gid, env: {}, stdio: "ignore", cwd: "/" });
      for (const pid of pids) signal(pid);
    },
  );
}

/**
 * Ends every other process of the caller's own user, in one system call (`kill(-1)` spares only
 * the caller). Only for a process whose user is its own alone: never root, never a person's.
 * It runs after every scenario, so it first asks the kernel whether any process was made since
 * it last found none (lastProcessIdMade): when none was, none of the user's can be there, and the
 * look through /proc (a fifth of a millisecond, thousands of times a grade) is spared.
 */
export function killOthersOfMyUser(): void {
  if (!process.getuid || process.getuid() === 0) return;
  const last = lastProcessIdMade();
  if (last !== null && last === noneSince) return;
  const ended = endAndWait(
    () => othersISignal(),
    () => {
      try {
        process.kill(-1, "SIGKILL");
      } catch {
        // ESRCH: there was none
      }
    },
  );
  // Read before the look: a process made during it moves the id on, and the next call looks again.
  noneSince = ended ? last : null;
}

/** The last process id the kernel gave when killOthersOfMyUser last found no process of the user left. */
let noneSince: string | null = null;

/**
 * The last process id the kernel gave, to a process or a thread, in this process's pid namespace
 * (/proc/loadavg's fifth field); null where it cannot be read. It moves on with every process
 * made, and comes back to a value only after pid_max more (32,768 by default): no scenario makes
 * that many between two of its ends, within its limits.
 */
function lastProcessIdMade(): string | null {
  try {
    return fs.readFileSync("/proc/loadavg", "latin1").trim().split(/\s+/)[4] ?? null;
  } catch {
    return null;
  }
}

/**
 * The other live processes this one may signal (zombies left out): for a process that is not root,
 * every process whose real or saved user id is its own (kill(2)'s rule), so every one of its user's
 * (a program made setuid keeps the user as its real id). Signal 0 tried on each process says it
 * without reading every process's status, which costs a few milliseconds a scenario; only those
 * it reaches are read, to leave zombies out.
 */
function othersISignal(): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const reached: number[] = [];
  // Most of them refuse: an error each, made without a stack (the host keeps 50 frames otherwise).
  const frames = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const entry of entries) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
      try {
        process.kill(pid, 0);
        reached.push(pid);
      } catch {} // not ours (EPERM), or gone (ESRCH)
    }
  } finally {
    Error.stackTraceLimit = frames;
  }
  return reached.filter((pid) => liveStatus(pid) !== null);
}

/** What /proc says of the process `pid`, or null when it has ended (since the list was read) or is a zombie, which runs nothing: it waits for its parent. */
function liveStatus(pid: number | string): string | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {
    return null;
  }
  return /^State:\s+[ZX]/m.test(status) ? null : status;
}

/** The ids of the threads of `pid` (none when it has ended). */
export function taskIds(pid: number): string[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** Every process below `pid`, through the children of each of its threads (of its main threads only, with `mainThreadOnly`). */
export function descendants(pid: number, mainThreadOnly: boolean): number[] {
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const tid of mainThreadOnly ? [String(parent)] : taskIds(parent)) {
      let children: string;
      try {
        children = fs.readFileSync(`/proc/${parent}/task/${tid}/children`, "utf8");
      } catch {
        continue;
      }
      for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
        if (found.includes(child)) continue;
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/**
 * Ends every process below this one (SIGKILL) and returns once none is left (or after
 * KILL_WAIT_MS): a grade stopped from outside must not leave a worker or a host writing into the
 * folders it is about to remove.
 */
export function endProcessesBelow(pid: number = process.pid): void {
  endAndWait(
    () => descendants(pid, false).filter((p) => liveStatus(p) !== null),
    (pids) => pids.forEach(signal),
  );
}

/**
 * Signals what `left()` lists with `kill`, and returns once `left()` is empty (true), or after
 * KILL_WAIT_MS (false). A killed process stays in /proc until the kernel has run its exit: on a
 * loaded machine, for milliseconds. Returning before would let one of them act in the next
 * scenario, so it waits for the exits, and signals again only now and then (a fork may have
 * slipped through).
 */
function endAndWait(left: () => number[], kill: (pids: number[]) => void): boolean {
  const deadline = steadyNow() + KILL_WAIT_MS;
  for (let round = 0; ; round++) {
    const pids = left();
    if (pids.length === 0) return true;
    if (steadyNow() > deadline) return false;
    if (round % 10 === 0) kill(pids);
    pause(2);
  }
}

/** How long an end of processes waits for them to exit before it gives up on the stragglers. */
const KILL_WAIT_MS = 5_000;

/** Blocks the thread for `ms` milliseconds (these run between scenarios, where nothing else may run). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function signal(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
