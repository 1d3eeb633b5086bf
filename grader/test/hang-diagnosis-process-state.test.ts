// What a process is doing is read from the process itself (sandbox/supervisor/process-state.ts),
// on live processes: one that spins, one asleep in a system call, one waiting for a program that
// spins, one waiting for a program that sleeps. Linux only: elsewhere there is no /proc to read,
// and a reading is null (the watchdog then keeps its plain timer).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterEach, expect, test } from "vitest";
import { DEFAULT_LIMITS, formatSeconds } from "../sandbox/messages/limits.js";
import { notFinished, type ProcessOutcome } from "../sandbox/supervisor/process-client.js";
import { activityBetween, readProcess, type Activity } from "../sandbox/supervisor/process-state.js";

const linux = process.platform === "linux";
const started: ChildProcess[] = [];

// Each shell leads a process group of its own: killing the group ends the program below it too.
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => new Promise<void>((resolve) => {
    if (c.exitCode === null && c.signalCode === null) c.once("exit", () => resolve());
    else resolve();
    try {
      process.kill(-c.pid!, "SIGKILL");
    } catch {}
  })));
});

/** Starts `sh -c script` (a script that `exec`s a program gives that program's pid), and waits until it has settled into what it does. */
async function start(script: string): Promise<number> {
  const child = spawn("sh", ["-c", script], { stdio: "ignore", detached: true });
  started.push(child);
  await new Promise((r) => setTimeout(r, 700));
  return child.pid!;
}

/** What `pid` did over the next `ms`, read twice. */
async function activityOf(pid: number, ms = 1_000): Promise<Activity | null> {
  const before = readProcess(pid);
  await new Promise((r) => setTimeout(r, ms));
  const after = readProcess(pid);
  return before && after ? activityBetween(before, after) : null;
}

const SPIN = `exec "${process.execPath}" -e "for (;;) {}"`;

test.runIf(linux)("a process spinning in a loop is running", async () => {
  expect(await activityOf(await start(SPIN))).toBe("running");
});

test.runIf(linux)("a process asleep reading a pipe nobody writes, or in Atomics.wait, is blocked", async () => {
  const folder = await dir({ unsafeCleanup: true });
  try {
    const fifo = path.join(folder.path, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(await activityOf(await start(`exec "${process.execPath}" -e "require('fs').readFileSync(process.argv[1])" "${fifo}"`))).toBe("blocked");
    expect(await activityOf(await start(`exec "${process.execPath}" -e "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)"`))).toBe("blocked");
  } finally {
    await folder.cleanup();
  }
});

test.runIf(linux)("a process waiting for a program it runs that spins is waiting for work, and one waiting for a program that sleeps is blocked", async () => {
  // The shell waits (in wait4) for the program below it.
  expect(await activityOf(await start(`${SPIN.replace(/^exec /, "")}; true`))).toBe("waiting-for-work");
  expect(await activityOf(await start("sleep 30; true"))).toBe("blocked");
});

test.runIf(linux)("a spinning process reads as running even when it got a small share of a processor: a thread of it is runnable at both readings", async () => {
  const pid = await start(SPIN);
  const before = readProcess(pid)!;
  const after = { ...readProcess(pid)!, cpuMs: before.cpuMs };
  expect(before.threads).toContain("R");
  expect(after.threads).toContain("R");
  expect(activityBetween(before, after)).toBe("running");
  // Caught runnable at one reading only, with no processor time used meanwhile: not running.
  expect(activityBetween({ ...before, threads: ["S"] }, after)).toBe("blocked");
});

test("a process that is not there (or a machine without /proc) has no reading", () => {
  // 2^22 + 1 is above Linux's largest process id.
  expect(readProcess(4_194_305)).toBeNull();
});

test("a process stopped for not finishing is told by what it was doing: a loop of its own, a program it started, or asleep (a timer, a server, an open handle)", () => {
  const outcome = (stuck: Activity | null) => ({ timedOut: true, stuck, limits: DEFAULT_LIMITS }) as ProcessOutcome;
  const within = `did not finish within ${formatSeconds(DEFAULT_LIMITS.processMs)}`;
  expect(notFinished(outcome("running"))).toBe(`${within}: it was still running code of its own (is there a loop that never ends?)`);
  expect(notFinished(outcome("waiting-for-work"))).toBe(`${within}: a program it started was still running (does that program end by itself?)`);
  expect(notFinished(outcome("blocked"))).toBe(`${within} (is a timer, a server or an open handle keeping the process alive?)`);
  expect(notFinished(outcome(null))).toBe(notFinished(outcome("blocked")));
});
