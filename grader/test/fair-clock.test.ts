// A check's clock (grading/fair-clock.ts): the machine's time a check had, which its deadline
// counts. A second counts in full while a processor was to spare, and by a runnable thread's share
// of the processors while all were taken; never more than the wall's.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { expect, test } from "vitest";
import { FairClock, shareBetween } from "../grading/fair-clock.js";

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
