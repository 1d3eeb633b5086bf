// A machine kept busy by other work never fails correct code for time: the check's deadline counts
// the time the machine could give the check, not the time the check waited for a processor. The
// solution's round-trip check needs about 3 s of the machine; with eight spinning processes per
// processor it takes several times its 12 s deadline in wall time, and still passes.
import { dir } from "tmp-promise";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SOLUTION_DIR } from "../paths.js";
import { checkOf, grade } from "./support/grade.js";
import { keepProcessorsBusy, rubricWithCheckMs } from "./support/deadline.js";

let scratch: { path: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: "deadline-load-" });
});
afterAll(() => scratch.cleanup());

test("with eight spinning processes per processor, the solution passes a check limited to 12 s that took longer than that in wall time", async () => {
  const rubric = rubricWithCheckMs(scratch.path, { checkMs: 12_000 });
  const busy = keepProcessorsBusy(8);
  try {
    const run = await grade(SOLUTION_DIR, ["--only", "phase1.round-trip", "--rubric", rubric]);
    const check = checkOf(run.report, "phase1.round-trip");
    expect(check?.message ?? "").toBe("");
    expect(check?.status).toBe("passed");
    // The premise: the wall clock alone would have failed it.
    expect(check?.durationMs).toBeGreaterThan(12_000);
  } finally {
    await busy.stop();
  }
});
