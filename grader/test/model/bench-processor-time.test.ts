// The bench's processor time of a program it runs (tools/bench/processor-time.ts): a child that
// spins counts, with the processes below it; one that sleeps does not; an exit code not expected is
// an error. And a grade's processor time by cause (tools/bench/cpu-causes.ts), from its processes' records.
import { expect, test } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endedChildrenSeconds, timedRun } from "../../tools/bench/processor-time.js";
import { profiledGrade } from "../../tools/bench/cpu-causes.js";

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

test.runIf(linux)("a grade run under GRADE_CPU_CAUSES leaves records of the grade process, its worker and a sandbox host, which hold at least 80% of the processor time the bench measured of it, and its total no more than that", async () => {
  const work = fs.mkdtempSync(path.join(fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir(), "cpu-causes-grade-"));
  try {
    const profile = await profiledGrade(work, ["--target", "solution", "--only", "phase1.round-trip", "--no-cache", "--json", path.join(work, "report.json")]);
    expect(profile.processes).toMatchObject({ grade: 1, worker: 1, host: 1 });
    const recorded = profile.lines.filter((l) => l.id !== "unattributed").reduce((sum, l) => sum + l.seconds, 0);
    // The grade process's count of itself and its descendants is part of what the bench counts of the whole run.
    expect(profile.totalSeconds!).toBeLessThanOrEqual(profile.cpuSeconds! + 0.02);
    expect(recorded).toBeGreaterThanOrEqual(0.8 * profile.cpuSeconds!);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
