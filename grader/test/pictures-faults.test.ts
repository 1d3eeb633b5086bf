// The picture of a disk-fault failure in real grades of two buggy fixtures (a full disk swallowed,
// a short write ignored): the JSON report's picture marks the call the story's fault names (its
// n-th write, its size, the bytes it wrote) and draws the folder the story lists; the report
// matches its schema; the terminal draws it above the story; in the HTML report, a real browser
// finds the same on the SVG's elements (data-* attributes), and a screenshot is kept in .grade/screenshots/.
import { describe, expect, test } from "vitest";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import { assertMatchesSchema } from "../schemas.js";
import { checkOf, composeTarget, grade } from "./support/grade.js";
import { browserPerFile, openPage, screenshots } from "./support/browser.js";

const shared = browserPerFile();

/** The fault as the story names it: "its 1st write of 1 (writeSync, 10 bytes to ...) wrote only 1 byte" or "... failed with ENOSPC". */
function storyFault(story: string): { nth: number; api: string; bytes: number; written: number } | null {
  const m = story.match(/its (\d+)(?:st|nd|rd|th) write of \d+ \((\w+), (\d+) bytes to [^)]*\) (?:wrote only (\d+) bytes?|got (\d+) bytes? in|failed with ENOSPC)/);
  if (!m) return null;
  return { nth: Number(m[1]), api: m[2]!, bytes: Number(m[3]), written: Number(m[4] ?? m[5] ?? 0) };
}

/** "checkpoint.json (10 bytes" for each file the picture drew, as the story lists it. */
const listed = (files: { name: string; bytes: number }[]) => files.map((f) => `${f.name} (${f.bytes} byte${f.bytes === 1 ? "" : "s"}`);

// Two grades at a time (maxConcurrency, project `fixtures` in vitest.config.ts).
describe.concurrent("pictures of disk faults in a grade", () => {
  test.each([
    { fixture: "disk-faults/swallows-enospc", check: "disk-faults.disk-full", fault: "ENOSPC" },
    { fixture: "disk-faults/ignores-short-write", check: "disk-faults.short-writes", fault: "short write" },
  ])("$fixture, $check: the marked call is the write the story's fault names, with the bytes it wrote, the folder is the one the story lists, and the SVG's elements say the same", async ({ fixture, check, fault }) => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", fixture));
    shared.keep(target);
    const html = path.join(target.path, "report.html");
    const run = await grade(target.path, ["--only", check, "--html", html]);
    assertMatchesSchema("report", run.report, "the report");
    const failed = checkOf(run.report, check)!;
    expect(failed.status).toBe("failed");
    const picture = failed.picture!;
    if (picture.kind !== "calls") throw new Error(`expected a picture of calls, got one of ${picture.kind}`);
    const story = failed.message!.replace(/\s+/g, " ");
    const named = storyFault(story);
    expect(named, story).not.toBeNull();
    const { afterOps } = picture.cut;
    expect(picture.cut).toMatchObject({ how: "fault", fault, written: named!.written });
    const hit = picture.ops[afterOps]!;
    expect(hit.what.startsWith(`${named!.api}(`)).toBe(true);
    expect(hit.bytes).toBe(named!.bytes);
    // The n-th write the story names is the n-th write the picture draws (no call is left out before it).
    expect(picture.ops.slice(0, afterOps + 1).filter((o) => o.bytes !== undefined && o.bytes > 0).length).toBe(named!.nth);
    expect(picture.ops.slice(0, afterOps).every((o) => !o.skipped)).toBe(true);
    const after = "On disk after it: ";
    const listing = story.slice(story.indexOf(after) + after.length, story.indexOf(". ", story.indexOf(after)));
    for (const file of listed(picture.after)) expect(listing).toContain(file);
    expect(listing.split(/\), /).length).toBe(Math.max(1, picture.after.length));
    // The terminal draws it above the story.
    const drawnAt = run.stdout.indexOf(`Calls of ${picture.call}:`);
    expect(drawnAt).toBeGreaterThan(run.stdout.indexOf(check));
    expect(drawnAt).toBeLessThan(run.stdout.indexOf("On disk after it"));
    expect(run.stdout.slice(drawnAt)).toContain(`✗ ${fault}: ${named!.written} of ${named!.bytes} bytes written`);

    const { page, context } = await openPage(shared.browser(), html);
    const svg = page.locator(`figure[data-picture="${check}"] svg.calls`);
    await expect(svg.count()).resolves.toBe(1);
    const mark = svg.locator("g.fault-mark");
    await expect(mark.count()).resolves.toBe(1);
    expect(await mark.getAttribute("data-fault")).toBe(fault);
    expect(await mark.getAttribute("data-after-ops")).toBe(String(afterOps));
    expect(await mark.getAttribute("data-written")).toBe(String(named!.written));
    expect(await svg.locator("g.op.fault").getAttribute("data-op-index")).toBe(String(afterOps));
    expect(await svg.locator("g.op.fault").getAttribute("data-bytes")).toBe(String(named!.bytes));
    await expect(svg.locator("g.op.not-run").count()).resolves.toBe(0);
    const files = await svg.locator("g.file").evaluateAll((els) => els.map((e) => e.getAttribute("data-file")));
    expect(files).toEqual(picture.after.map((f) => f.name));
    expect(await svg.getAttribute("aria-label")).toContain(`The disk said no at call ${afterOps + 1} (${hit.what})`);
    await expect(page.locator(`[data-check="${check}"] [data-folder="after"] h4`).textContent()).resolves.toBe("After the call");
    await context.close();
    const overflowing = await screenshots(shared.browser(), `faults-${fixture.replace("/", "-")}`, html);
    expect(overflowing).toEqual([]);
  });
});
