// Gradescope's test output with a failure's picture: a failed check that has a picture is a test
// in Gradescope's "html" output format whose output is the picture (an <img> of a standalone SVG,
// as a data: URI) with the picture's words as alt text, then the story and the replay command,
// escaped. Opened in a real browser as a page of Gradescope's would hold it: the image loads with
// no request, and its SVG marks the crash where the report's picture does.
import { DOMParser } from "@xmldom/xmldom";
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { GradescopeResults } from "../report/formats/gradescope.js";
import type { CheckReport, Report } from "../report/report.js";
import { launchBrowser, SCREENSHOTS } from "./support/browser.js";
import { composeTarget, grade } from "./support/grade.js";

let browser: Browser;
let tmp: { path: string; cleanup: () => Promise<void> };
let target: { path: string; cleanup: () => Promise<void> };
let results: GradescopeResults;
let report: Report;

beforeAll(async () => {
  browser = await launchBrowser();
  tmp = await dir({ unsafeCleanup: true, prefix: "gradescope-pictures-" });
  target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/phase1/write-in-place"));
  const file = path.join(tmp.path, "results.json");
  const run = await grade(target.path, ["--only", "phase1", "--gradescope", file]);
  results = JSON.parse(fs.readFileSync(file, "utf8")) as GradescopeResults;
  report = run.report!;
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([tmp?.cleanup(), target?.cleanup()]);
});

/** The report's check a Gradescope test stands for. */
function checkOfTest(name: string): CheckReport {
  return report.deliverables.flatMap((d) => d.checks).find((c) => name.replace(/^\(bonus\) /, "").startsWith(`${c.id}: `))!;
}

/** The SVG document inside an <img src="data:image/svg+xml;base64,...">. */
function svgOf(src: string): string {
  expect(src).toMatch(/^data:image\/svg\+xml;base64,/);
  return Buffer.from(src.slice(src.indexOf(",") + 1), "base64").toString("utf8");
}

describe("Gradescope's test output with a picture", () => {
  test("each failed test whose check has a picture is in the html output format and holds the picture's image, the story and the replay command; every other test stays plain text", () => {
    const drawn = results.tests.filter((t) => checkOfTest(t.name).picture);
    expect(drawn.length).toBeGreaterThan(0);
    for (const t of results.tests) {
      const check = checkOfTest(t.name);
      if (t.status === "failed" && check.picture) {
        expect(t.output_format, t.name).toBe("html");
        expect(t.output).toMatch(/^<p><img alt="[^"]+" width="\d+" height="\d+" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"><\/p>\n<pre>/);
      } else {
        expect(t.output_format, t.name).toBeUndefined();
        expect(t.output).not.toContain("<img");
      }
    }
  });

  test("in a browser, each picture's image loads from its data: URI with no request, its alt text is the picture's words, its SVG marks the crash after the call the report's picture does, and the story and replay read as the report's", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => void (r.url().startsWith("data:") || requests.push(r.url())));
    for (const t of results.tests.filter((t) => t.output_format === "html")) {
      const check = checkOfTest(t.name);
      await page.setContent(`<!doctype html><html><body><div class="test-output">${t.output}</div></body></html>`, { waitUntil: "load" });
      const img = page.locator("img");
      expect(await img.evaluate((e) => (e as unknown as { complete: boolean; naturalWidth: number }).complete && (e as unknown as { naturalWidth: number }).naturalWidth > 0), t.name).toBe(true);
      const svg = svgOf((await img.getAttribute("src"))!);
      const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
      const root = doc.documentElement!;
      expect(root.getAttribute("aria-label")).toBe(await img.getAttribute("alt"));
      expect(root.getElementsByTagName("style").length).toBe(1);
      if (check.picture!.kind === "calls") {
        const cut = [...Array.from(root.getElementsByTagName("g")), ...Array.from(root.getElementsByTagName("line"))].find((e) => e.hasAttribute("data-cut"))!;
        expect(cut.getAttribute("data-after-ops")).toBe(String(check.picture!.cut.afterOps));
      }
      expect(await page.locator("pre").textContent()).toBe(check.message);
      expect(await page.locator("code").textContent()).toBe(check.replay);
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `gradescope-${check.id}.png`), fullPage: true });
    }
    expect(requests).toEqual([]);
    await context.close();
  });
});
