// A call's time limit counts its processor time (sandbox/runtime/target/time-limit.ts): a loop
// is stopped after the same work however busy the machine, a call that sleeps uses none and
// returns, and the signal that stops a call never reaches another call or a moment between calls.
import os from "node:os";
import { execFileSync, spawn } from "node:child_process";
import { expect, test } from "vitest";
import { CallTimedOut, withCallLimits, withTimeLimit } from "../sandbox/runtime/target/time-limit.js";

/** What `fn` did under a limit of `ms`, with the processor and wall time it took. */
function timed(fn: () => unknown, ms: number): { outcome: unknown; cpuMs: number; wallMs: number } {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  let outcome: unknown;
  try {
    outcome = withTimeLimit(fn, ms);
  } catch (error) {
    outcome = error;
  }
  const used = process.cpuUsage(cpu);
  return { outcome, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall };
}

const spinForever = () => {
  for (;;);
};

test("a call that spins is stopped once it has used its limit of processor time, and not long after", () => {
  const { outcome, cpuMs } = timed(spinForever, 300);
  expect(outcome).toBeInstanceOf(CallTimedOut);
  expect((outcome as CallTimedOut).message).toBe("did not return within 0.3 s");
  expect(cpuMs).toBeGreaterThanOrEqual(280);
  expect(cpuMs).toBeLessThan(1_000);
});

test("a call that sleeps for longer than its limit without using a processor returns what it returns", () => {
  const { outcome, wallMs } = timed(() => (Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 800), "slept"), 300);
  expect(outcome).toBe("slept");
  expect(wallMs).toBeGreaterThanOrEqual(790);
});

test("a program the call ran and waited for counts: a call that waits for a program spinning 0.6 s of processor, then sleeps, is stopped at a limit of 0.3 s; one under a limit of 5 s returns", () => {
  const spinThenSleep = () => {
    execFileSync(process.execPath, ["-e", "const t = process.cpuUsage(); while (process.cpuUsage(t).user < 600_000);"]);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 800);
    return "returned";
  };
  const stopped = timed(spinThenSleep, 300);
  expect(stopped.outcome).toBeInstanceOf(CallTimedOut);
  // Stopped while it slept, once the program's time was read: its own processor time is small.
  expect(stopped.cpuMs).toBeLessThan(300);
  expect(timed(spinThenSleep, 5_000).outcome).toBe("returned");
});

test("a call that spins while four processes per processor spin is stopped after its limit of processor time, however long that takes by the wall", async () => {
  const spin = "const end = Date.now() + 8000; while (Date.now() < end) {}";
  // Processes, not threads: a thread of this process would count in the call's processor time.
  const spinners = Array.from({ length: 4 * os.availableParallelism() }, () => spawn(process.execPath, ["-e", spin], { stdio: "ignore" }));
  try {
    await new Promise((r) => setTimeout(r, 500));
    const { outcome, cpuMs } = timed(spinForever, 500);
    expect(outcome).toBeInstanceOf(CallTimedOut);
    expect(cpuMs).toBeGreaterThanOrEqual(480);
  } finally {
    for (const s of spinners) s.kill("SIGKILL");
  }
});

/** This process's processor time so far, in milliseconds: the clock a call's limit reads. */
const processorMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

test("of 300 calls that spin for up to four and a half times their limit of processor time, each alternating with a call that returns or throws at once, every one that returned kept its value, every one past the watchdog's bound was stopped, and no quick call was stopped", () => {
  const LIMIT_MS = 20;
  const outcomes: { spun: number; outcome: unknown; quick: unknown }[] = [];
  withCallLimits(() => {
    for (let i = 0; i < 300; i++) {
      const spun = ((i * 7) % 90) + 0.5 * (i % 3);
      // Spun in processor time, as the limit counts: on a busy machine a spin timed by the wall uses less.
      const { outcome } = timed(() => {
        const end = processorMs() + spun;
        while (processorMs() < end);
        return i;
      }, LIMIT_MS);
      const quick = timed(() => (i % 2 ? i : (() => { throw new Error(`threw ${i}`); })()), LIMIT_MS).outcome;
      outcomes.push({ spun, outcome, quick });
    }
  });
  for (const [i, o] of outcomes.entries()) {
    expect(o.outcome === i || o.outcome instanceof CallTimedOut).toBe(true);
    if (i % 2) expect(o.quick).toBe(i);
    else expect((o.quick as Error).message).toBe(`threw ${i}`);
  }
  // The limit took effect: calls spinning past the watchdog's bound were stopped, calls well under it returned. The
  // watchdog notices a new call at its next look (every 20 ms while calls come), looks again 20 ms later, then every
  // 5 ms or more: a 20 ms call is stopped within 45 ms of processor time, and the system's wake of the thread may add
  // a few more (48 ms was seen once in 300 calls on a quiet machine): 10 ms are allowed for it.
  const bound = 20 + 20 + 5 + 10;
  expect(outcomes.filter((o) => o.spun > bound).length).toBeGreaterThanOrEqual(100);
  expect(outcomes.filter((o) => o.spun > bound && !(o.outcome instanceof CallTimedOut))).toEqual([]);
  expect(outcomes.filter((o) => o.spun < LIMIT_MS / 4 && o.outcome instanceof CallTimedOut)).toEqual([]);
});

test("inside one region of call limits, a call that spins is stopped and the calls after it run as usual", () => {
  const results = withCallLimits(() => [timed(() => 1, 200).outcome, timed(spinForever, 200).outcome, timed(() => 3, 200).outcome]);
  expect(results[0]).toBe(1);
  expect(results[1]).toBeInstanceOf(CallTimedOut);
  expect(results[2]).toBe(3);
});

test("after a quarter of a second with no call (the watchdog then sleeps until the next one), a call that spins is still stopped at its limit", async () => {
  timed(() => 0, 100);
  await new Promise((r) => setTimeout(r, 250));
  const { outcome, cpuMs } = timed(spinForever, 200);
  expect(outcome).toBeInstanceOf(CallTimedOut);
  expect(cpuMs).toBeLessThan(1_000);
});
