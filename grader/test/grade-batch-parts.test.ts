// The parts of `npm run grade-batch` that need no grade: CSV quoting, how many grades run at once and how long each may take,
// the comparison of a clone's grader files with the student template.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { loadRubric } from "../rubric.js";
import { csvField } from "../tools/batch/gradebook.js";
import { defaultJobs, loadFactor } from "../tools/batch/load.js";
import { modifiedFiles, pristineDigests } from "../tools/batch/modified.js";
import { writeTemplate } from "./support/batch.js";

describe("grade-batch's parts", () => {
  test("a CSV field is quoted when it holds a comma, a quote or a line break", () => {
    expect(["plain", "a, b", 'say "hi"', "two\nlines", ""].map(csvField)).toEqual(["plain", '"a, b"', '"say ""hi"""', '"two\nlines"', ""]);
  });

  test("one grade runs per two cores, and the wall time a grade may take grows with the grades that share the cores", () => {
    expect([defaultJobs(1), defaultJobs(2), defaultJobs(3), defaultJobs(16)]).toEqual([1, 1, 1, 8]);
    expect([loadFactor(1, 2), loadFactor(2, 2), loadFactor(3, 2), loadFactor(4, 16)]).toEqual([1, 2, 3, 1]);
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
