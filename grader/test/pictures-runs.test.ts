// The "runs" picture in real grades of one buggy fixture per deliverable (Phase 2, Phase 3,
// stretch-git): the JSON report's picture puts the kill at the run and step the story names and
// marks the step the story names as wrong; in the HTML report, a real browser finds the same on
// the SVG's elements (data-* attributes), and a screenshot is kept in .grade/screenshots/.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import path from "node:path";
import type { Browser } from "playwright-core";
import { REPO_ROOT } from "../paths.js";
import type { RunsPicture } from "../report/picture-runs.js";
import { checkOf, composeTarget, grade } from "./support/grade.js";
import { launchBrowser, openPage, screenshots } from "./support/browser.js";

const targets: { cleanup: () => Promise<void> }[] = [];
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(targets.map((t) => t.cleanup()));
});

/** Where the story says run 1 was killed: its step and where in it, as the picture's `at` names it. */
function storyKill(story: string): { step: number; at: string } | null {
  const m = story.match(/^(?:Run|A session) .*?killed (?:at the boundary after step (\d+)|after step (\d+)'s side effect, before its checkpoint|inside runStep\((\d+)\)|with SIGKILL at its change to the disk number \d+ of \d+.*?, after step (\d+)'s side effect)/);
  if (!m) return null;
  if (m[1]) return { step: Number(m[1]), at: "after" };
  if (m[2]) return { step: Number(m[2]), at: "in-window" };
  if (m[3]) return { step: Number(m[3]), at: "in-step" };
  return { step: Number(m[4]), at: "after" };
}

describe("pictures of runs in a grade", () => {
  test.each([
    { fixture: "phase2/skip-step-on-resume", check: "phase2.boundary-crash", wrong: /step (\d+) never ran/ },
    { fixture: "phase3/replays-steps", check: "phase3.killed-session", wrong: /step (\d+) ran \d+ times/ },
    { fixture: "stretch-git/no-reset", check: "stretch-git.killed-in-commit", wrong: null },
  ])("$fixture, $check: the kill is at the run and step the story names, the wrong step is the story's, and the SVG's elements say the same", async ({ fixture, check, wrong }) => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", fixture));
    targets.push(target);
    const html = path.join(target.path, "report.html");
    const run = await grade(target.path, ["--only", check, "--html", html]);
    const failed = checkOf(run.report, check)!;
    expect(failed.status).not.toBe("passed");
    const picture = failed.picture as RunsPicture;
    expect(picture?.kind).toBe("runs");
    const story = failed.message!.replace(/\s+/g, " ").replace(/^.*It also fails on its own: /, "");
    const kill = storyKill(story);
    expect(kill).not.toBeNull();
    expect(picture.runs[0]!.killed).toMatchObject(kill!);
    expect(picture.runs.slice(1).every((r) => !r.killed)).toBe(true);
    const named = wrong && story.match(wrong);
    if (named) {
      expect(picture.wrong?.step).toBe(Number(named[1]));
      const times = story.match(/ran (\d+) times/);
      if (times) expect(picture.runs.flatMap((r) => r.cells).filter((c) => c.step === Number(named[1])).length).toBe(Number(times[1]));
    } else expect(picture.wrong?.step).toBeUndefined();
    // The terminal draws it above the story.
    expect(run.stdout.indexOf("✂")).toBeGreaterThan(run.stdout.indexOf(check));

    const { page, context } = await openPage(browser, html);
    const svg = page.locator(`figure[data-picture="${check}"] svg.runs`);
    await expect(svg.count()).resolves.toBe(1);
    const marker = svg.locator("g.kill");
    await expect(marker.count()).resolves.toBe(1);
    expect(await marker.getAttribute("data-run")).toBe("1");
    expect(await marker.getAttribute("data-step")).toBe(String(kill!.step));
    expect(await marker.getAttribute("data-at")).toBe(kill!.at);
    if (named) {
      expect(await svg.locator("rect.wrong-step").getAttribute("data-step")).toBe(named[1]);
      const wrongCells = svg.locator("g.cell[data-wrong]");
      for (const step of await wrongCells.evaluateAll((cells) => cells.map((c) => c.getAttribute("data-step")))) expect(step).toBe(named[1]);
    }
    // Each cell in the SVG is a step of that run in the JSON picture.
    const cells = await svg.locator("g.cell").evaluateAll((els) => els.map((e) => `${e.getAttribute("data-run")}:${e.getAttribute("data-step")}`));
    expect(cells).toEqual(picture.runs.flatMap((r, i) => r.cells.map((c) => `${i + 1}:${c.step}`)));
    expect(await svg.getAttribute("aria-label")).toContain(`killed ${picture.runs[0]!.killed!.words}`);
    await context.close();
    const overflowing = await screenshots(browser, `runs-${fixture.replace("/", "-")}`, html);
    expect(overflowing).toEqual([]);
  });
});
