// A grade follows the manifest's task (grader/rubric.json, "task"): with 6 steps, sessions of 2, 2
// and 2 and the kill entering step 3, the reference earns every point of Phases 2 and 3, the
// checks' titles say those numbers, and a buggy session's story is told in them. About 15 s.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { DEFAULT_RUBRIC } from "../rubric.js";
import { checkOf, composeTarget, grade, notPassedWhy } from "./support/grade.js";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "task-steps-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** The shipped manifest with a task of 6 steps, as a file of its own. */
function sixStepManifest(): string {
  const manifest = JSON.parse(fs.readFileSync(DEFAULT_RUBRIC, "utf8"));
  manifest.task = { steps: 6, sessions: [2, 2, 2], killedAtStep: 3 };
  const file = path.join(folder, "rubric.json");
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  return file;
}

describe("a grade with the manifest's task of 6 steps", () => {
  test("the reference earns every point of Phases 2 and 3, under titles that say 6 steps, sessions of 2, 2 and 2, and the kill at step 3", async () => {
    const run = await grade(path.join(REPO_ROOT, "solution"), ["--rubric", sixStepManifest(), "--only", "phase2", "--only", "phase3"]);
    const report = run.report!;
    expect(notPassedWhy(report)).toEqual({});
    expect(report.score).toBe(65);
    expect(checkOf(report, "phase2.complete-run")!.title).toBe("runs steps 1 to 6 once each, in order, and says done");
    expect(checkOf(report, "phase2.killed-at-step-6")!.title).toBe("handout scenario: killed at step 3, resumes 3 to 6");
    expect(checkOf(report, "phase3.three-sessions")!.title).toBe("sessions of 2, 2 and 2 steps complete the task");
  });

  test("a session that passes one step fewer than --max-steps is told in the task's numbers: sessions of 2, 2 and 2, the step it ran, 2 of the task's 6 steps to be done", async () => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/phase3/budget-off-by-one"));
    try {
      const run = await grade(target.path, ["--rubric", sixStepManifest(), "--only", "phase3.three-sessions"]);
      expect(checkOf(run.report, "phase3.three-sessions")!.message).toBe(
        'Ran 3 sessions with --max-steps 2, 2, 2: session 1: `session --checkpoint task-checkpoint.json --max-steps 2` ran step 1 and printed {"status":"paused","nextStep":2}; expected {"status":"paused","nextStep":3}, with 2 of the task\'s 6 steps done.',
      );
    } finally {
      await target.cleanup();
    }
  });
});
