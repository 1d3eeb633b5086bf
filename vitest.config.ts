// The grader's own test suite. Grading itself runs through `npm run grade`.
// Two projects: `grader` (`npm test`), the grader's tests, and `submissions`
// (`npm run test:submissions`), which grades every fixture, hostile and contained submission,
// replays their printed commands, grades one twice, grades the solution and the starter on each
// Node version courses use, and draws real grades' failures (each kind of picture against its
// story, and the HTML reports in a browser). CI (`.ci/run`) runs both.
import { defineConfig } from "vitest/config";

/** The tests that grade the submissions under grader/fixtures, each one in full. */
const SUBMISSIONS = ["buggy-fixtures", "hostile", "contained", "reproducible", "html-report-grades", "pictures-runs", "pictures-lanes", "pictures-diff", "pictures-faults", "check-deadline-under-load", "hang-diagnosis-under-load", "regrade-workflow", "gradebook-dashboard-page", "grade-on-node-versions"].map((name) => `grader/test/${name}.test.ts`);

export default defineConfig({
  test: {
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Each test grades a target, and a grade already uses both cores: run few at once.
    maxConcurrency: 1,
    fileParallelism: false,
    projects: [
      { extends: true, test: { name: "grader", include: ["grader/test/**/*.test.ts"], exclude: SUBMISSIONS } },
      { extends: true, test: { name: "submissions", include: SUBMISSIONS } },
    ],
  },
});
