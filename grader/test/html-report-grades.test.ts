// The HTML report of real grades, in a real browser: the solution graded in full, and one buggy
// fixture per deliverable graded with --only that deliverable. Each page loads from disk with no
// console error and no request but its own; each failed check has its story and replay command,
// and the picture the JSON report holds for it (the same picture: its text alternative is the
// one the JSON picture's SVG has), and the checks named below have one; Copy copies the printed
// command; Tab reaches every check. Screenshots of each go to .grade/screenshots/grade-*.png.
// (Where each kind of picture puts its marker is asserted against the story by that kind's own
// tests: pictures.test.ts, pictures-runs.test.ts, pictures-lanes.test.ts, pictures-diff.test.ts,
// pictures-faults.test.ts.)
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { pictureAltText } from "../report/html/picture-svg.js";
import type { CheckReport, Report } from "../report/report.js";
import { checksReachedByTab, copiedReplay, launchBrowser, openPage, screenshots } from "./support/browser.js";
import { composeTarget, grade } from "./support/grade.js";

/** One buggy fixture per deliverable, and the failed checks whose picture it must draw. */
const FIXTURES: { fixture: string; only: string; drawn: string[] }[] = [
  { fixture: "phase1/write-in-place", only: "phase1", drawn: ["phase1.crash-safety"] },
  { fixture: "phase2/skip-step-on-resume", only: "phase2", drawn: ["phase2.boundary-crash", "phase2.crash-anywhere", "phase2.crash-schedules", "phase2.killed-at-step-6"] },
  { fixture: "phase3/replays-steps", only: "phase3", drawn: ["phase3.three-sessions", "phase3.random-splits"] },
  { fixture: "stretch-git/no-reset", only: "stretch-git", drawn: ["stretch-git.crash-recovery"] },
  { fixture: "stretch-diff/off-by-one", only: "stretch-diff", drawn: ["stretch-diff.first-step"] },
  { fixture: "power-loss/no-fsync", only: "power-loss", drawn: ["power-loss.never-torn", "power-loss.durable"] },
  { fixture: "concurrency/fixed-temp-name", only: "concurrency", drawn: ["concurrency.two-writers"] },
  { fixture: "disk-faults/swallows-enospc", only: "disk-faults", drawn: ["disk-faults.disk-full"] },
];

let browser: Browser;
let tmp: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  browser = await launchBrowser();
  tmp = await dir({ unsafeCleanup: true, prefix: "html-report-grades-" });
});

afterAll(async () => {
  await browser?.close();
  await tmp?.cleanup();
});

/** Every check of a report that failed or could not run. */
function failures(report: Report): CheckReport[] {
  return report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "failed" || c.status === "error");
}

/** Grades `target` (--only `only`, when given) with `--html`, and checks the page as the file's header says; returns the grade's report, as the page shows it. */
async function checkPage(name: string, target: string | null, only?: string): Promise<Report> {
  const file = path.join(tmp.path, `${name}.html`);
  const run = await grade(target, [...(only ? ["--only", only] : []), "--html", file]);
  // The page shows the deliverables asked for; the JSON report also holds those they wait on.
  const report = { ...run.report!, deliverables: run.report!.deliverables.filter((d) => !only || d.id === only) };
  expect(fs.existsSync(file), run.stdout + run.stderr).toBe(true);
  const { page, context, requests, errors, url } = await openPage(browser, file);
  const checks = report.deliverables.flatMap((d) => d.checks);
  expect(await page.locator("details[data-check]").count()).toBe(checks.length);
  for (const c of failures(report)) {
    const shown = page.locator(`details[data-check="${c.id}"]`);
    expect(await shown.locator("pre.story").textContent(), c.id).toBe(c.message);
    if (c.replay) expect(await shown.locator("code.command").textContent(), c.id).toBe(c.replay);
    const svg = shown.locator("figure.picture svg[role=img]");
    expect(await svg.count(), c.id).toBe(c.picture ? 1 : 0);
    if (c.picture) {
      const alt = await svg.getAttribute("aria-label");
      expect(alt, c.id).toBeTruthy();
      // The page's picture is the JSON's: it says the JSON picture's words.
      expect(alt, c.id).toBe(pictureAltText(c.picture));
      expect(await svg.locator(":scope > title").textContent(), c.id).toBe(alt);
    }
  }
  expect(await checksReachedByTab(page, checks.map((c) => c.id))).toEqual(checks.map((c) => c.id).sort());
  expect([errors, requests]).toEqual([[], [url]]);
  await context.close();
  const replayed = failures(report).find((c) => c.replay);
  if (replayed) expect(await copiedReplay(browser, file, replayed.id)).toBe(replayed.replay);
  expect(await screenshots(browser, `grade-${name}`, file)).toEqual([]);
  return report;
}

// Two grades at a time (maxConcurrency, project `fixtures` in vitest.config.ts).
describe.concurrent("the HTML report of real grades, in a browser", () => {
  test("the solution graded in full: every check passed, the page loads clean, Tab reaches every check", async () => {
    const report = await checkPage("solution", SOLUTION_DIR);
    expect(failures(report)).toEqual([]);
  });

  test.each(FIXTURES)("$fixture (--only $only): each failure's story, replay and picture are on the page, those of $drawn drawn; Copy copies the command; Tab reaches every check", async ({ fixture, only, drawn }) => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", fixture));
    try {
      const report = await checkPage(fixture.replace("/", "-"), target.path, only);
      const failed = failures(report);
      for (const id of drawn) expect(failed.find((c) => c.id === id)?.picture, id).toBeDefined();
    } finally {
      await target.cleanup();
    }
  });
});
