// The processes of one user, read from /proc, and how to end them all: by user id, not by process
// tree, so a process that left its tree (a double fork, a new session) is found as well.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

/** Process ids of the live processes whose real, effective or saved user id is `uid` (zombies left out). */
export function processesOf(uid: number): number[] {
  const out: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${entry}/status`, "latin1");
    } catch {
      continue; // ended while the list was read
    }
    if (/^State:\s+[ZX]/m.test(status)) continue; // a zombie runs nothing: it waits for its parent
    const ids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
    if (ids && ids.slice(1, 4).some((id) => Number(id) === uid)) out.push(Number(entry));
  }
  return out;
}

/**
 * Ends every process of `uid` (the caller must be root or that user, and not be one of them):
 * `kill -9 -1` run as that user signals all of its processes in one system call, so one that
 * forks while it is killed is caught too; the list is read again until it is empty.
 */
export function killEveryProcessOf(user: { uid: number; gid: number }): void {
  for (let round = 0; round < 50; round++) {
    const pids = processesOf(user.uid);
    if (pids.length === 0) return;
    if (process.getuid?.() === 0) spawnSync("/bin/sh", ["-c", "kill -9 -1"], { uid: user.uid, gid: user.gid, env: {}, stdio: "ignore", cwd: "/" });
    for (const pid of pids) signal(pid);
  }
}

/**
 * Ends every other process of the caller's own user, in one system call (`kill(-1)` spares only
 * the caller). Only for a process whose user is its own alone: never root, never a person's.
 */
export function killOthersOfMyUser(): void {
  if (!process.getuid || process.getuid() === 0) return;
  try {
    process.kill(-1, "SIGKILL");
  } catch {
    // ESRCH: there was none
  }
}

function signal(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
