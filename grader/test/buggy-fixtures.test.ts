// Each known-buggy implementation in grader/fixtures loses exactly the checks its fixture.json
// names, and every message tells the crash story with a replay command and no machine paths.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { composeTarget, expectedExit, grade, loadFixtures, notPassed } from "./support/grade.js";

const FIXTURES = path.join(REPO_ROOT, "grader/fixtures");

// Hostile and contained submissions have their own tests (hostile.test.ts, contained.test.ts).
const groups = fs.readdirSync(FIXTURES).filter((d) => d !== "hostile" && d !== "contained");
const fixtures = loadFixtures(FIXTURES, groups);

// maxConcurrency (vitest.config.ts) keeps this to two grades at a time.
describe.concurrent("buggy fixtures", () => {
  test.each(fixtures)("$name loses exactly the checks it breaks", async ({ dir, fails, only }) => {
    const target = await composeTarget(dir);
    try {
      const run = await grade(target.path, only);
      const report = run.report!;
      expect(run.exitCode).toBe(expectedExit(report, fails, only));
      expect(notPassed(report)).toEqual([...fails].sort());
      for (const d of report.deliverables.filter((d) => d.status === "graded")) {
        const lost = d.checks.some((c) => fails.includes(c.id));
        expect(d.points < d.maxPoints).toBe(lost);
      }
      for (const c of report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "failed")) {
        expect(c.replay).toMatch(/^npm run grade -- --target \S+ --only \S+ --seed \d+/);
        expect(c.message).not.toContain(target.path);
        expect(c.message).not.toMatch(/\/(dev\/shm|tmp|work)\//);
      }
    } finally {
      await target.cleanup();
    }
  });
});
