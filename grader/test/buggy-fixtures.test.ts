// Each known-buggy implementation in grader/fixtures loses exactly the checks its fixture.json
// names, and every message tells the crash story with a replay command and no machine paths.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { composeTarget, grade, notPassed } from "./support/grade.js";

const FIXTURES = path.join(REPO_ROOT, "grader/fixtures");

// Hostile submissions have their own test (hostile.test.ts).
const fixtures = fs.readdirSync(FIXTURES).filter((d) => d !== "hostile").flatMap((deliverable) =>
  fs.readdirSync(path.join(FIXTURES, deliverable)).map((name) => ({
    deliverable,
    name,
    dir: path.join(FIXTURES, deliverable, name),
    fails: (JSON.parse(fs.readFileSync(path.join(FIXTURES, deliverable, name, "fixture.json"), "utf8")) as { fails: string[] }).fails,
  })),
);

// maxConcurrency (vitest.config.ts) keeps this to two grades at a time.
describe.concurrent("buggy fixtures", () => {
  test.each(fixtures)("$deliverable/$name loses exactly the checks it breaks", async ({ dir, fails }) => {
    const target = await composeTarget(dir);
    try {
      const run = await grade(target.path);
      expect(run.exitCode).toBe(1);
      const report = run.report!;
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
