// The parts of `npm run grade-batch` that need no grade: CSV quoting, limits scaled to the load,
// the comparison of a clone's grader files with the student template.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { loadRubric } from "../rubric.js";
import { csvField } from "../tools/batch/gradebook.js";
import { defaultJobs, loadFactor, scaledRubric } from "../tools/batch/load.js";
import { modifiedFiles, pristineDigests } from "../tools/batch/modified.js";
import { writeTemplate } from "./support/batch.js";

describe("grade-batch's parts", () => {
  test("a CSV field is quoted when it holds a comma, a quote or a line break", () => {
    expect(["plain", "a, b", 'say "hi"', "two\nlines", ""].map(csvField)).toEqual(["plain", '"a, b"', '"say ""hi"""', '"two\nlines"', ""]);
  });

  test("time limits grow with the grades that share the cores; memory limits do not", () => {
    expect([defaultJobs(1), defaultJobs(2), defaultJobs(3), defaultJobs(16)]).toEqual([1, 1, 1, 8]);
    expect([loadFactor(1, 2), loadFactor(2, 2), loadFactor(3, 2), loadFactor(4, 16)]).toEqual([1, 2, 3, 1]);
    const rubric = loadRubric();
    const scaled = scaledRubric(rubric, 2.5);
    expect(scaled.limits).toEqual({ ...rubric.limits, callMs: rubric.limits.callMs * 2.5, processMs: rubric.limits.processMs * 2.5, checkMs: rubric.limits.checkMs * 2.5 });
    expect(scaled.deliverables).toEqual(rubric.deliverables);
  });

  test("a clone checked out with CRLF line ends is unmodified; one without grader/ lacks the whole folder", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "clone-" });
    try {
      writeTemplate(tmp.path);
      const rubricFile = path.join(tmp.path, "grader/rubric.json");
      fs.writeFileSync(rubricFile, fs.readFileSync(rubricFile, "utf8").replace(/\n/g, "\r\n"));
      const pristine = pristineDigests(REPO_ROOT);
      expect(modifiedFiles(tmp.path, pristine)).toEqual([]);
      fs.rmSync(path.join(tmp.path, "grader"), { recursive: true });
      fs.appendFileSync(path.join(tmp.path, "package.json"), " ");
      expect(modifiedFiles(tmp.path, pristine)).toEqual(["grader/ (missing)", "package.json"]);
    } finally {
      await tmp.cleanup();
    }
  });
});
