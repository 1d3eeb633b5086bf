// A call that met its time limit while the machine kept it from running gets more time on its
// next try (sandbox/runtime/target/time-limit.ts): the share of a processor it had says how much.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { expect, test } from "vitest";
import { CallTimedOut, nextLimit, withTimeLimit } from "../sandbox/runtime/target/time-limit.js";

const linux = process.platform === "linux";

test("the next try's limit is the nominal one over the share the last try had, at least twice the last, at most ten minutes", () => {
  // A whole processor: doubled, as on a quiet machine (5, 10, 20, 40 s).
  expect([5_000, 10_000, 20_000].map((ms) => nextLimit(ms, 5_000, 1))).toEqual([10_000, 20_000, 40_000]);
  // A tenth of a processor: 5 s of the machine take 50 s of wall.
  expect(nextLimit(5_000, 5_000, 0.1)).toBe(50_000);
  // Less each time than doubling would give: doubled.
  expect(nextLimit(50_000, 5_000, 0.5)).toBe(100_000);
  // No share measured, or none at all: bounded.
  expect(nextLimit(5_000, 5_000)).toBe(10_000);
  expect(nextLimit(5_000, 5_000, 0)).toBe(500_000);
  expect(nextLimit(400_000, 5_000, 0.5)).toBe(600_000);
});

test("a call that sleeps past its limit while four threads per processor spin reports a share of a processor under one half (Linux), and whole elsewhere", async () => {
  const spin = "const end = Date.now() + 1500; while (Date.now() < end) {}";
  const spinners = Array.from({ length: 4 * os.availableParallelism() }, () => new Promise((resolve) => new Worker(spin, { eval: true }).on("exit", resolve)));
  // Let the spinners start before the call does.
  await new Promise((r) => setTimeout(r, 300));
  let timedOut: unknown;
  try {
    withTimeLimit(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000), 500);
  } catch (error) {
    timedOut = error;
  }
  await Promise.all(spinners);
  expect(timedOut).toBeInstanceOf(CallTimedOut);
  const { starved, share } = timedOut as CallTimedOut;
  expect(starved).toBe(true);
  if (linux) expect(share).toBeLessThan(0.5);
  else expect(share).toBe(1);
});
