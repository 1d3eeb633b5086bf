// A check's clock (grading/fair-clock.ts): the machine's time a check had, which its deadline
// counts. A second counts in full while a processor was to spare, and by a runnable thread's share
// of the processors while all were taken; never more than the wall's.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { expect, test } from "vitest";
import { FairClock, withinDeadline } from "../grading/fair-clock.js";
import { shareBetween } from "../sandbox/busy-machine.js";

const linux = process.platform === "linux";

test("a stretch with a processor to spare counts in full, however many threads are runnable", () => {
  const before = { total: 1000, idle: 500, runnable: 40 };
  expect(shareBetween(before, { total: 1100, idle: 520, runnable: 40 }, 2)).toBe(1);
});

test("a saturated stretch counts by the share of the processors each runnable thread had, the reader left out", () => {
  const before = { total: 1000, idle: 500, runnable: 9 };
  // 98% busy, 9 runnable (8 others and the reader) on 2 processors: a quarter of a processor each.
  expect(shareBetween(before, { total: 1100, idle: 502, runnable: 9 }, 2)).toBe(0.25);
  // As few runnable threads as processors: each had a processor of its own.
  expect(shareBetween({ ...before, runnable: 2 }, { total: 1100, idle: 502, runnable: 2 }, 2)).toBe(1);
  // No time passed: nothing to judge by.
  expect(shareBetween(before, before, 2)).toBe(1);
});

test("with four spinning threads per processor for 2 s, a clock counts under half the wall time (Linux), and never more than it", async () => {
  const clock = FairClock.start();
  try {
    const spin = "const end = Date.now() + 2000; while (Date.now() < end) {}";
    const spinners = Array.from({ length: 4 * os.availableParallelism() }, () => new Promise((resolve) => new Worker(spin, { eval: true }).on("exit", resolve)));
    await Promise.all(spinners);
    expect(clock.wallMs()).toBeGreaterThanOrEqual(2000);
    expect(clock.fairMs()).toBeLessThanOrEqual(clock.wallMs());
    if (linux) expect(clock.fairMs()).toBeLessThan(clock.wallMs() / 2);
    else expect(clock.fairMs()).toBeGreaterThan(clock.wallMs() - 100);
  } finally {
    clock.stop();
  }
});

/** A clock whose machine time runs at `rate` of a wall that starts now. */
function clockAt(rate: number): { fairMs: () => number; wallMs: () => number } {
  const start = Date.now();
  return { wallMs: () => Date.now() - start, fairMs: () => (Date.now() - start) * rate };
}
const never = new Promise<string>(() => {});

test("withinDeadline gives the work's result when it comes first, and late('deadline') once the machine time passes its limit", async () => {
  expect(await withinDeadline(Promise.resolve("done"), { clock: clockAt(1), fairMs: 200, wallMs: 2000 }, (why) => why)).toBe("done");
  const started = Date.now();
  expect(await withinDeadline(never, { clock: clockAt(1), fairMs: 200, wallMs: 2000 }, (why) => why)).toBe("deadline");
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
});

test("withinDeadline counts machine time, not wall time (200 ms of a quarter of the machine take 800 ms), and says late('machine') at the wall-time cap", async () => {
  // A quarter of the machine: 200 ms of it take 800 ms of wall.
  const started = Date.now();
  expect(await withinDeadline(never, { clock: clockAt(0.25), fairMs: 200, wallMs: 5000 }, (why) => why)).toBe("deadline");
  expect(Date.now() - started).toBeGreaterThanOrEqual(750);
  // A machine that gives nothing: the wall-time cap ends it.
  expect(await withinDeadline(never, { clock: clockAt(0), fairMs: 200, wallMs: 400 }, (why) => why)).toBe("machine");
});
