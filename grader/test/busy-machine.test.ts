// The machine's busyness, as a check's deadline reads it (sandbox/busy-machine.ts): every
// processor kept busy counts as saturated; no time passed, or no /proc/stat, never does.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { expect, test } from "vitest";
import { readMachine, saturatedSince } from "../sandbox/busy-machine.js";

const linux = process.platform === "linux";

test("the processor times grow, and the idle part never exceeds the whole (Linux)", async () => {
  const before = readMachine();
  expect(before === null).toBe(!linux);
  if (!before) return;
  await new Promise((r) => setTimeout(r, 50));
  const after = readMachine()!;
  expect(after.total).toBeGreaterThan(before.total);
  expect(after.idle - before.idle).toBeLessThanOrEqual(after.total - before.total);
});

test("with one spinning thread per processor for 600 ms, the machine counts as saturated (Linux); with no time passed, or no sample, it does not", async () => {
  expect(saturatedSince(null)).toBe(false);
  const now = readMachine();
  expect(saturatedSince(now && { ...now, total: now.total + 1e9 })).toBe(false);
  const since = readMachine();
  const spin = "const end = Date.now() + 600; while (Date.now() < end) {}";
  await Promise.all(os.cpus().map(() => new Promise((resolve) => new Worker(spin, { eval: true }).on("exit", resolve))));
  expect(saturatedSince(since)).toBe(linux);
});
