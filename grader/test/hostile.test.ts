// Hostile submissions (grader/fixtures/hostile): code that hangs, exits, crashes the runtime,
// floods its output, bombs memory or disk, fakes its output or does not compile. Each grade
// finishes within the stated bound, writes a valid report in which exactly the expected checks
// fail (in the full grades, every other deliverable keeps every point), leaves no process
// behind, and keeps the student's words clean.
import { SCHEMA_VERSION } from "../report/report.js";
import path from "node:path";
import { dir } from "tmp-promise";
import { beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { gradeBoundMs } from "../sandbox/supervisor/limits.js";
import { processesMentioning } from "./support/processes.js";
import { allStories, composeTarget, HOSTILE_LIMITS, rubricWithLimits, expectedExit, grade, loadFixtures, notPassed, notPassedWhy } from "./support/grade.js";

const HOSTILE = path.join(REPO_ROOT, "grader/fixtures/hostile");

let rubricFile: string;
beforeAll(async () => {
  const folder = await dir({ unsafeCleanup: true });
  rubricFile = rubricWithLimits(folder.path, { callMs: HOSTILE_LIMITS.callMs, processMs: HOSTILE_LIMITS.processMs });
  return () => folder.cleanup();
});

const fixtures = loadFixtures(path.dirname(HOSTILE), ["hostile"]);

// Two grades at a time (maxConcurrency, project `fixtures` in vitest.config.ts): a hostile
// submission gets the same verdicts and stories on a busy machine, within the same bound.
describe.concurrent("hostile fixtures", () => {
  test.each(fixtures)("$name: $note", async ({ dir, fails: asGraderUser, failsAsOwnUser, only, says }) => {
    const target = await composeTarget(dir);
    try {
      const started = Date.now();
      const run = await grade(target.path, ["--rubric", rubricFile, ...only]);
      expect(Date.now() - started).toBeLessThan(gradeBoundMs(HOSTILE_LIMITS));
      expect(run.stderr).not.toMatch(/grade: /);
      const report = run.report!;
      // As a user of its own (the grade runs as root), an attack on the grader's process fails.
      const fails = report.targetUser?.separate ? (failsAsOwnUser ?? asGraderUser) : asGraderUser;
      expect(run.exitCode).toBe(expectedExit(report, fails, only));
      expect(report.schemaVersion).toBe(SCHEMA_VERSION);
      // The messages of the checks that did not pass, in the failure's output: a check lost under load says why.
      expect(notPassed(report), JSON.stringify(notPassedWhy(report), null, 1)).toEqual([...fails].sort());
      if (only.length === 0) expect(report.deliverables.filter((d) => d.status === "graded").map((d) => d.id)).toEqual(["phase1", "phase2", "phase3", "stretch-git", "stretch-diff", "power-loss", "concurrency", "disk-faults"]);
      for (const d of report.deliverables.filter((d) => d.status === "graded")) {
        expect(d.points < d.maxPoints).toBe(d.checks.some((c) => fails.includes(c.id)));
      }
      for (const c of report.deliverables.flatMap((d) => d.checks).filter((c) => c.status !== "passed")) {
        expect(c.status).not.toBe("error");
        expect(c.message).not.toContain(target.path);
        expect(c.message).not.toMatch(/\/(dev\/shm|tmp|work)\/|node:internal|host\.cjs|grader\//);
        expect(c.message!.length).toBeLessThan(3000);
      }
      if (says) expect(allStories(report)).toContain(says);
      expect(processesMentioning(target.path)).toEqual([]);
    } finally {
      await target.cleanup();
    }
  });
});
