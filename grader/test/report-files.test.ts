// Where a grade leaves its report in .grade/: the last full grade's report and page stay until the
// next full grade; a partial grade (--only) writes its own in .grade/partial/ and names the full
// one; a replay (--replay) leaves .grade/ byte for byte as it was. Graded in a copy of the
// repository (its .grade/ is the copy's own), whose rubric keeps Phase 1 alone, with
// phase1/write-in-place's checkpoint.ts in starter/: it fails crash-safety, with a picture.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { Report } from "../report/report.js";
import { copyRepository, labFiles, putFiles } from "./support/checkout.js";

let checkout: { path: string; cleanup: () => Promise<void> };

/** Runs `npm run grade -- ...args` in the copy, as a student would from its root (without npm). */
async function grade(args: string[]): Promise<{ exitCode: number; stdout: string }> {
  const run = await execa(process.execPath, [path.join(checkout.path, "grader/cli/launch.mjs"), "--no-cache", ...args], { cwd: checkout.path, reject: false, env: { NO_COLOR: "1" } });
  return { exitCode: run.exitCode ?? -1, stdout: `${run.stdout}\n${run.stderr}` };
}

/** Every file under the copy's .grade/, by path, with its bytes. */
function gradeFolder(): Map<string, Buffer> {
  const root = path.join(checkout.path, ".grade");
  const files = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else files.set(path.relative(root, full), fs.readFileSync(full));
    }
  };
  walk(root);
  return files;
}

const read = (file: string) => fs.readFileSync(path.join(checkout.path, ".grade", file));

beforeAll(async () => {
  checkout = await dir({ unsafeCleanup: true, prefix: "report-files-" });
  await copyRepository(checkout.path);
  const rubricFile = path.join(checkout.path, "grader", "rubric.json");
  const rubric = JSON.parse(fs.readFileSync(rubricFile, "utf8")) as { deliverables: { id: string; enabled: boolean }[] };
  for (const d of rubric.deliverables) d.enabled = d.id === "phase1";
  fs.writeFileSync(rubricFile, JSON.stringify(rubric, null, 2) + "\n");
  putFiles(path.join(checkout.path, "starter"), labFiles(path.join(REPO_ROOT, "grader/fixtures/phase1/write-in-place")));
});

afterAll(async () => {
  await checkout?.cleanup();
});

describe("the reports a grade leaves in .grade/", () => {
  test("after a full grade, an --only grade leaves the full grade's report.json and report.html (its pictures too) byte for byte, writes its own to .grade/partial/ naming the full one, and a --replay leaves all of .grade/ byte for byte as it was", async () => {
    const full = await grade([]);
    expect(full.exitCode, full.stdout).toBe(1);
    expect(full.stdout.trimEnd().split("\n").at(-1)).toBe("See each crash: .grade/report.html");
    const json = read("report.json");
    const html = read("report.html");
    const report = JSON.parse(json.toString("utf8")) as Report;
    expect(report.partial).toBeUndefined();
    const crashSafety = report.deliverables[0]!.checks.find((c) => c.id === "phase1.crash-safety")!;
    expect(crashSafety.picture).toBeDefined();
    expect(html.toString("utf8")).toContain(`data-picture="phase1.crash-safety"`);
    expect(html.toString("utf8")).toContain("Full grade of");

    const partial = await grade(["--only", "phase1.crash-safety"]);
    expect(partial.exitCode, partial.stdout).toBe(1);
    expect(partial.stdout.trimEnd().split("\n").at(-1)).toBe("See each crash: .grade/partial/report.html");
    expect(read("report.json").equals(json)).toBe(true);
    expect(read("report.html").equals(html)).toBe(true);
    const partialReport = JSON.parse(read("partial/report.json").toString("utf8")) as Report;
    expect(partialReport.partial?.only).toEqual(["phase1.crash-safety"]);
    const partialPage = read("partial/report.html").toString("utf8");
    expect(partialPage).toContain("Partial grade of");
    expect(partialPage).toMatch(/The last full grade's page \(a grade of [^)]+\), <a href="\.\.\/report\.html">\.grade\/report\.html<\/a> \(written \d{4}-\d\d-\d\d \d\d:\d\d\), is still there/);

    // The case the full grade printed a replay for: it still fails, and .grade/ is as it was.
    const replay = crashSafety.replay!.split(" ");
    expect(replay).toContain("--replay");
    const before = gradeFolder();
    const replayed = await grade(replay.slice(replay.indexOf("--") + 1));
    expect(replayed.exitCode, replayed.stdout).toBe(1);
    expect(replayed.stdout).toContain("it still fails");
    const after = gradeFolder();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [file, bytes] of before) expect(after.get(file)?.equals(bytes), file).toBe(true);
  });
});
