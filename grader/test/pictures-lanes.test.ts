// The lanes picture of a concurrency failure in a real grade: the JSON report's picture marks the
// step the story names ("after step N"), each step it draws is the story's numbered line, the
// scoreboard draws it above the story, and in a real headless browser the SVG's data-* attributes
// say the same (the wrong load's badge in the row of step N, the failure's line under that row).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { lanesWords } from "../report/html/svg-lanes-words.js";
import type { LanesPicture } from "../contract/picture-lanes.js";
import { browserPerFile, openPage, screenshots } from "./support/browser.js";
import { checkOf, composeTarget, grade } from "./support/grade.js";

const shared = browserPerFile();

// Two grades at a time (maxConcurrency, project `fixtures` in vitest.config.ts).
describe.concurrent("the lanes picture of a concurrency failure in a grade", () => {
  test.each([
    { fixture: "fixed-temp-name", kind: "load" },
    { fixture: "load-removes-temps", kind: "writer" },
  ])("$fixture: the picture marks the step the story names, draws the story's numbered steps, sits above the story, and its SVG's data-* attributes say the same", async ({ fixture, kind }) => {
    const check = "concurrency.two-writers";
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/concurrency", fixture));
    shared.keep(target);
    const html = path.join(target.path, "report.html");
    const run = await grade(target.path, ["--only", check, "--html", html]);
    const failed = checkOf(run.report, check)!;
    expect(failed.status).toBe("failed");
    const picture = failed.picture as LanesPicture;
    expect(picture?.kind).toBe("lanes");
    const story = failed.message!;
    const lines = story.split("\n");
    // The story names the step: "after step N, ...".
    const named = Number(/\nafter step (\d+), /.exec(story)![1]);
    expect(picture.failure).toMatchObject({ kind, afterStep: named });
    const drawn = picture.steps.filter((s) => !s.skipped);
    expect(drawn.at(-1)!.n).toBe(named);
    for (const s of drawn) expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  ${s.n}\\. ${s.writer}: ${escapeRegExp(s.what!)}${s.failed ? " \\(it failed\\)" : ""}(;|$)`)));
    if (kind === "load") expect(picture.loads.filter((l) => l.wrong).map((l) => l.afterStep)).toEqual([named]);
    else expect(picture.failure.writer).toBe(/\nafter step \d+, writer ([A-Z])'s/.exec(story)![1]);
    // The scoreboard draws it between the check's id and its story.
    const drawnAt = run.stdout.indexOf("A lane per writer");
    expect(drawnAt).toBeGreaterThan(run.stdout.indexOf(check));
    expect(drawnAt).toBeLessThan(run.stdout.indexOf("2 writers, each a process of its own"));
    expect(run.stdout.slice(drawnAt)).toContain(`✗ after step ${named}:`);

    const { page, context } = await openPage(shared.browser(), html);
    const svg = page.locator(`details[data-check="${check}"] svg.lanes`);
    expect(await svg.getAttribute("role")).toBe("img");
    expect(await svg.getAttribute("aria-label")).toBe(lanesWords(picture));
    expect(await svg.locator("title").first().textContent()).toBe(lanesWords(picture));
    const steps = await svg.locator("[data-step]").evaluateAll((es) => es.map((e) => ({ n: Number(e.getAttribute("data-step")), writer: e.getAttribute("data-writer"), what: e.getAttribute("data-what") })));
    expect(steps).toEqual(drawn.map((s) => ({ n: s.n, writer: s.writer, what: s.what })));
    const marker = svg.locator("[data-failure]");
    expect(await marker.getAttribute("data-after-step")).toBe(String(named));
    expect(await marker.getAttribute("data-kind")).toBe(kind);
    // Where things sit, from the SVG's own geometry: the failure's line right under the row of step N.
    const box = (selector: string) => svg.locator(selector).first().evaluate((e) => { const b = (e as unknown as { getBBox(): { y: number; height: number } }).getBBox(); return { top: b.y, bottom: b.y + b.height }; });
    const row = await box(`[data-step="${named}"]`);
    const line = await box("[data-failure] line");
    expect(line.top).toBeGreaterThanOrEqual(row.bottom - 1);
    expect(line.top).toBeLessThan(row.bottom + 12);
    if (kind === "load") {
      const wrong = svg.locator("[data-load-after][data-wrong]");
      expect(await wrong.count()).toBe(1);
      expect(await wrong.getAttribute("data-load-after")).toBe(String(named));
      const badge = await box("[data-load-after][data-wrong]");
      expect(badge.top).toBeGreaterThanOrEqual(row.top);
      expect(badge.bottom).toBeLessThanOrEqual(row.bottom + 1);
      expect(await wrong.textContent()).toContain("✗");
    } else {
      expect(await svg.locator(`[data-step="${named}"][data-threw]`).getAttribute("data-writer")).toBe(picture.failure.writer);
    }
    await context.close();
    expect(await screenshots(shared.browser(), `lanes-${fixture}`, html)).toEqual([]);
    expect(fs.existsSync(path.join(REPO_ROOT, ".grade/screenshots", `lanes-${fixture}-light-1280.png`))).toBe(true);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
