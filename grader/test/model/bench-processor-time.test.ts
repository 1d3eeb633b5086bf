// The bench's processor time of a program it runs (tools/bench/processor-time.ts): a child that
// spins counts, with the processes below it; one that sleeps does not; an exit code not expected is an error.
import { expect, test } from "vitest";
import { endedChildrenSeconds, timedRun } from "../../tools/bench/processor-time.js";

const linux = process.platform === "linux";
// Spins until the process has used `ms` of processor time (not of wall time: a busy machine would give it less).
const spin = (ms: number) => `while ((process.cpuUsage().user + process.cpuUsage().system) / 1000 < ${ms}) {}`;

test("a child that spins for 0.6 s, and its own child for 0.6 s more, count at least 0.9 s of processors; one that sleeps 0.6 s counts under 0.3 s (Linux; null elsewhere)", async () => {
  const grandchild = `require("node:child_process").execFileSync(process.execPath, ["-e", ${JSON.stringify(spin(600))}]); ${spin(600)}`;
  const busy = await timedRun(process.execPath, ["-e", grandchild]);
  const idle = await timedRun(process.execPath, ["-e", "setTimeout(() => {}, 600)"]);
  if (!linux) {
    expect([busy.cpuSeconds, idle.cpuSeconds, endedChildrenSeconds()]).toEqual([null, null, null]);
    return;
  }
  expect(busy.cpuSeconds).toBeGreaterThanOrEqual(0.9);
  expect(busy.cpuSeconds).toBeLessThan(2);
  expect(idle.cpuSeconds).toBeLessThan(0.3);
  expect(idle.seconds).toBeGreaterThanOrEqual(0.6);
});

test("a run that exits with a code it was not told to expect is an error naming the code; one told to expect it is measured", async () => {
  await expect(timedRun(process.execPath, ["-e", "process.exit(1)"])).rejects.toThrow(/expected exit code 0, got 1/);
  await expect(timedRun(process.execPath, ["-e", "process.exit(1)"], { exitCodes: [1] })).resolves.toMatchObject({ seconds: expect.any(Number) });
});
