// The grader's own test suite (`npm test`). Grading itself runs through `npm run grade`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["grader/test/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Each test grades a target, and a grade already uses both cores: run few at once.
    maxConcurrency: 1,
    fileParallelism: false,
  },
});
