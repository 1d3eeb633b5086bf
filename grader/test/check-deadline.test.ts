// A check's deadline (`checkMs`) holds on the target: a target whose every call is slow, each within
// its own limit, fails the check with the deadline's message once the check's processes have had
// `checkMs` (sandbox/supervisor/processor-clock.ts). (That a busy machine does not fail a correct
// one: check-deadline-under-load.)
import { dir } from "tmp-promise";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkOf, grade } from "./support/grade.js";
import { rubricWithLimits, solutionWithSlowLoads } from "./support/deadline.js";

let scratch: { path: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: "deadline-" });
});
afterAll(() => scratch.cleanup());

test("a target whose every load waits 0.7 s, within its 5 s call limit, fails a check limited to 6 s with the deadline's message", async () => {
  // Waits without using a processor: the host is blocked while the check waits on it, and that counts by the wall.
  const target = solutionWithSlowLoads(scratch.path, "slow-load", "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);");
  const rubric = rubricWithLimits(scratch.path, { checkMs: 6_000 });
  const run = await grade(target, ["--only", "phase1.round-trip", "--rubric", rubric]);
  const check = checkOf(run.report, "phase1.round-trip");
  expect(check?.status).toBe("failed");
  expect(check?.message).toMatch(/^The check did not finish within 6 s, the most one check may take[ .(]/);
  expect(check?.message).toContain("No call into your code met its own limit of 5 s, yet together they took longer");
});
