// A check's clock (sandbox/supervisor/processor-clock.ts) counts the processor time of the
// processes that run the target's code, and the wall time while one the check waits on is
// blocked; a process waiting for its turn, or idle between requests, adds nothing. Read from
// /proc (Linux); elsewhere only the wall time while a process is waited on counts.
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "vitest";
import { ProcessorClock, withinDeadline } from "../sandbox/supervisor/processor-clock.js";

const linux = process.platform === "linux";

/** A node process running `code`, and a promise of its end. */
function node(code: string): { child: ChildProcess; ended: Promise<void> } {
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  return { child, ended: new Promise((resolve) => child.on("exit", () => resolve())) };
}

// Spins until it has used a second of processor time (however long a busy machine makes that take), says so, then sleeps.
const SPIN_1S = `const used = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
while (used() < 1000) {}
process.stdout.write("spun\\n");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10000);`;
const SLEEP_1S = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000)";

/** What a clock counted for one process running `code`, waited on or not, up to just before its end. */
async function counted(code: string, waitedOn: boolean): Promise<number> {
  const clock = ProcessorClock.start();
  const { child, ended } = node(code);
  const stop = clock.count({ pid: () => child.pid, waitedOn: () => waitedOn });
  await new Promise((r) => setTimeout(r, 900));
  stop();
  await ended;
  clock.stop();
  return clock.usedMs();
}

/** What a clock counted for a process that spins for a second of processor time, waited on or not, until it says it is done. */
async function countedSpin(waitedOn: boolean): Promise<number> {
  const clock = ProcessorClock.start();
  const child = spawn(process.execPath, ["-e", SPIN_1S], { stdio: ["ignore", "pipe", "ignore"] });
  const stop = clock.count({ pid: () => child.pid, waitedOn: () => waitedOn });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => String(chunk).includes("spun") && resolve());
      child.on("exit", () => reject(new Error("the spinning process ended before it said it was done")));
    });
    stop();
    return clock.usedMs();
  } finally {
    clock.stop();
    child.kill("SIGKILL");
  }
}

// The clock's first reading is its baseline: what the process used before it (at most the 0.25 s between readings) is not counted.
test.runIf(linux)("a process that spins for a second of processor time, waited on, counts it: all but what it used before the clock's first reading", async () => {
  expect(await countedSpin(true)).toBeGreaterThanOrEqual(700);
});

test.runIf(linux)("a process that spins while nobody waits on it counts its processor time all the same", async () => {
  expect(await countedSpin(false)).toBeGreaterThanOrEqual(700);
});

test.runIf(linux)("a process asleep in a system call counts the wall time while it is waited on, and nothing while it is not", async () => {
  expect(await counted(SLEEP_1S, true)).toBeGreaterThanOrEqual(500);
  expect(await counted(SLEEP_1S, false)).toBeLessThan(100);
});

test("the deadline is met once the counted time passes it, and the wall cap once the wall time passes it", async () => {
  const never = new Promise<string>(() => {});
  let used = 0;
  let wall = 0;
  const clock = { usedMs: () => used, wallMs: () => wall };
  const deadline = withinDeadline(never, { clock, usedMs: 1000, wallMs: 10_000 }, (why) => why);
  used = 1000;
  expect(await deadline).toBe("deadline");
  used = 0;
  const machine = withinDeadline(never, { clock, usedMs: 1000, wallMs: 10_000 }, (why) => why);
  wall = 10_000;
  expect(await machine).toBe("machine");
  expect(await withinDeadline(Promise.resolve("done"), { clock: { usedMs: () => 0, wallMs: () => 0 }, usedMs: 1000, wallMs: 10_000 }, (why) => why)).toBe("done");
});
