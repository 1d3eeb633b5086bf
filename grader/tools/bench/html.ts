// What the HTML report costs: the time to render a grade's report as its page (the grade writes
// it on every run), beside the grade's own time, and the page's size; for the solution and the
// starter, and for the buggy fixtures whose pages hold the most pictures, each graded in full.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT, SOLUTION_DIR } from "../../paths.js";
import { renderHtmlReport } from "../../report/html/render.js";
import type { Report } from "../../report/report.js";
import { steadyNow } from "../../steady-clock.js";

/** Fixtures whose full grades draw the most, and the largest, pictures: every kind of picture among them. */
export const DRAWN_FIXTURES = ["phase1/write-in-place", "phase2/skip-step-on-resume", "phase3/replays-steps", "concurrency/fixed-temp-name", "stretch-diff/top-level-only", "disk-faults/swallows-enospc"];

/** Medians over `runs` renders of `report`'s page, in ms, and the page's size in bytes. */
export function htmlCost(report: Report, runs: number): { ms: number[]; bytes: number } {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    bytes = Buffer.byteLength(renderHtmlReport(report));
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ms, bytes };
}

/** Grades `fixture` in full over the reference's other files (in `work`): its report and the grade's wall time in seconds. */
export async function gradeFixture(fixture: string, work: string): Promise<{ report: Report; seconds: number }> {
  const target = fs.mkdtempSync(path.join(work, "fixture-"));
  fs.cpSync(SOLUTION_DIR, target, { recursive: true });
  const source = path.join(REPO_ROOT, "grader/fixtures", fixture);
  for (const name of fs.readdirSync(source).filter((n) => n.endsWith(".ts"))) fs.copyFileSync(path.join(source, name), path.join(target, name));
  const json = path.join(target, "report.json");
  const started = steadyNow();
  await execa(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", target, "--json", json, "--no-cache"], { cwd: REPO_ROOT, reject: false });
  const seconds = (steadyNow() - started) / 1000;
  const report = JSON.parse(fs.readFileSync(json, "utf8")) as Report;
  fs.rmSync(target, { recursive: true, force: true });
  return { report, seconds };
}
