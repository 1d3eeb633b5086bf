// A call that met its time limit while the machine kept it from running gets more time on its
// next try (sandbox/runtime/target/time-limit.ts): the share of a processor it had says how much.
import os from "node:os";
import { spawn } from "node:child_process";
import { expect, test } from "vitest";
import { CallTimedOut, nextLimit, runsAgain, withTimeLimit } from "../sandbox/runtime/target/time-limit.js";

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

test("a call that sleeps past its limit while four processes per processor spin reports a share of a processor under one half (Linux), and whole elsewhere, and runs again", async () => {
  const spin = "const end = Date.now() + 1500; while (Date.now() < end) {}";
  // Processes, not threads: a thread of this process would count in the call's processor time.
  const spinners = Array.from({ length: 4 * os.availableParallelism() }, () => new Promise((resolve) => spawn(process.execPath, ["-e", spin], { stdio: "ignore" }).on("exit", resolve)));
  // Let the spinners start before the call does.
  await new Promise((r) => setTimeout(r, 500));
  let timedOut: unknown;
  try {
    withTimeLimit(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000), 500);
  } catch (error) {
    timedOut = error;
  }
  await Promise.all(spinners);
  expect(timedOut).toBeInstanceOf(CallTimedOut);
  const { share } = timedOut as CallTimedOut;
  expect(runsAgain(timedOut as CallTimedOut, 500)).toBe(true);
  if (linux) expect(share).toBeLessThan(0.5);
  else expect(share).toBe(1);
});

test("a call runs again while it has used less than half its nominal limit of processor time, and not once it has used half", () => {
  expect(runsAgain({ cpuMs: 0 }, 5_000)).toBe(true);
  expect(runsAgain({}, 5_000)).toBe(true);
  expect(runsAgain({ cpuMs: 2_499 }, 5_000)).toBe(true);
  expect(runsAgain({ cpuMs: 2_500 }, 5_000)).toBe(false);
  // A later try has a longer limit; the nominal one decides: 4 s of a 10 s try is 80% of 5 s.
  expect(runsAgain({ cpuMs: 4_000 }, 5_000)).toBe(false);
});

test("a call that spins past its limit has used its processor time and does not run again", () => {
  let timedOut: unknown;
  try {
    withTimeLimit(() => {
      for (;;);
    }, 300);
  } catch (error) {
    timedOut = error;
  }
  expect(timedOut).toBeInstanceOf(CallTimedOut);
  expect(runsAgain(timedOut as CallTimedOut, 300)).toBe(false);
});
