// A machine kept busy by other work never fails correct code for time: the check's deadline counts
// its processes' processor time, not the time they waited for a processor. The
// target is the solution with loads that compute for a while (correct, and slowed by the busy
// machine whatever its disk); its check is graded quietly first, then under eight spinning
// processes per processor (more where eight slow a thread less than 16 times) with a deadline
// well above the quiet time and well below the loaded wall time.
import { dir } from "tmp-promise";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkOf, grade } from "./support/grade.js";
import { keepProcessorsStretched, rubricWithLimits, solutionWithSlowLoads } from "./support/deadline.js";

let scratch: { path: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: "deadline-load-" });
});
afterAll(() => scratch.cleanup());

/**
 * 25 ms of the process's processor time, on every run: a loop of a fixed count is not the same
 * work twice, since V8 may compile it to optimized code early on a quiet machine (a whole check
 * then took 1.5 s, not 9) and late under load, where its compiler's thread waits too.
 */
const COMPUTE = "{ const from = process.cpuUsage(); let x = 0; for (;;) { for (let i = 0; i < 100_000; i++) x = (x + i) | 0; const used = process.cpuUsage(from); if (used.user + used.system >= 25_000) break; } if (x === 7) console.log(x); }";

test("with eight or more spinning processes per processor, slowing a thread at least 16 times, a correct target passes a check limited to 4 times its quiet time though it took longer than that in wall time", async () => {
  const target = solutionWithSlowLoads(scratch.path, "computing-load", COMPUTE);
  const roomy = rubricWithLimits(scratch.path, { checkMs: 120_000 });
  const began = performance.now();
  const quiet = checkOf((await grade(target, ["--only", "phase1.round-trip", "--rubric", roomy])).report, "phase1.round-trip");
  const quietGradeMs = performance.now() - began;
  expect(quiet?.status).toBe("passed");
  const quietMs = quiet?.durationMs ?? 0;
  // The limit below is made from it: a check's time is within its grade's, whatever the system's clock did.
  expect(quietMs).toBeGreaterThan(0);
  expect(quietMs).toBeLessThanOrEqual(quietGradeMs);
  // 4x, not less: a processor does less work in a second while every one is busy (measured on a
  // 2-core virtual machine: the same check's sandbox host used 4.5 s of processor quiet and 9.5 s
  // under this load), which no reading of a process shows.
  const checkMs = Math.ceil((4 * quietMs) / 1000) * 1000;
  const rubric = rubricWithLimits(scratch.path, { checkMs });
  const busy = await keepProcessorsStretched({ stretch: 16, perCore: 8, maxPerCore: 32 });
  const loaded = `${busy.perCore} spinning processes per processor (a thread stretched ${busy.stretch.toFixed(1)} times)`;
  console.log(`round-trip with slow loads: ${quietMs} ms quiet (its grade ${Math.round(quietGradeMs)} ms), limit ${checkMs} ms; now graded with ${loaded}`);
  try {
    const run = await grade(target, ["--only", "phase1.round-trip", "--rubric", rubric]);
    const check = checkOf(run.report, "phase1.round-trip");
    expect(check?.message ?? "").toBe("");
    expect(check?.status).toBe("passed");
    // The premise: the wall clock alone would have failed it.
    console.log(`round-trip with slow loads: ${check?.durationMs} ms with ${loaded}`);
    expect(check?.durationMs).toBeGreaterThan(checkMs);
  } finally {
    await busy.stop();
  }
});
