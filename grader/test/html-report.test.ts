// The HTML report (.grade/report.html, --html) in a real browser: Debian's chromium-headless-shell
// driven by playwright-core. A grade of the starter and of a buggy fixture each write a page that
// loads from disk with no console error and no request but its own file; each failure's story and
// replay command are on it, and Copy copies exactly that command; Tab reaches every check; a
// picture's SVG draws every call, the crash and every file; a story's HTML is shown as text and
// runs nothing. Screenshots (light and dark, desktop and 360 px) go to .grade/screenshots/.
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { renderHtmlReport } from "../report/html/render.js";
import { HOLDS_LABEL, pictureWords } from "../report/html/picture-words.js";
import { filePreview, type CallsPicture } from "../contract/picture.js";
import type { CheckReport, Report } from "../report/report.js";
import { checksReachedByTab, launchBrowser, openPage, screenshots, SCREENSHOTS, type Opened } from "./support/browser.js";
import { composeTarget, grade, type GradeRun } from "./support/grade.js";

/** The fixture is graded with --only: a partial grade, whose page is beside the full grade's. */
const SEE_EACH_CRASH = "See each crash: .grade/partial/report.html";

let browser: Browser;
let tmp: { path: string; cleanup: () => Promise<void> };
/** The reference with phase1/write-in-place's checkpoint.ts: it fails crash-safety, and passes phase1.absent. */
let target: { path: string; cleanup: () => Promise<void> };
const pages: Record<"starter" | "fixture", { run: GradeRun; html: string; file: string }> = {} as never;

const open = (file: string, opts: { width?: number; dark?: boolean; noClipboard?: boolean } = {}): Promise<Opened> => openPage(browser, file, opts);

/** Every check of a report that failed or could not run. */
function failures(report: Pick<Report, "deliverables">): CheckReport[] {
  return report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "failed" || c.status === "error");
}

beforeAll(async () => {
  browser = await launchBrowser();
  tmp = await dir({ unsafeCleanup: true, prefix: "html-report-" });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/phase1/write-in-place"));
  for (const [name, args, where] of [["starter", [], null], ["fixture", ["--only", "phase1"], target.path]] as const) {
    const file = path.join(tmp.path, `${name}.html`);
    const run = await grade(where, [...args, "--html", file]);
    pages[name] = { run, file, html: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "" };
  }
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([tmp?.cleanup(), target?.cleanup()]);
});

describe("the HTML report of a grade", () => {
  test("a grade of the starter and of a buggy fixture (--only phase1) write .html files that load with no console error and no network request, and the terminal's last line points to the page when a started deliverable failed (the fixture), not when none was started (the starter)", async () => {
    for (const name of ["starter", "fixture"] as const) {
      const { run, file, html } = pages[name];
      expect(run.exitCode, run.stderr).toBe(1);
      expect(html).toMatch(/^<!doctype html>/);
      // The starter's deliverables are all not started: nothing on the page to see beyond that.
      if (name === "fixture") expect(run.stdout.trimEnd().split("\n").at(-1)).toBe(SEE_EACH_CRASH);
      else expect(run.stdout).not.toContain("See each crash");
      const opened = await open(file);
      expect(opened.requests).toEqual([opened.url]);
      expect(opened.errors).toEqual([]);
      expect(await opened.page.locator("details[data-check]").count()).toBe(run.report!.deliverables.flatMap((d) => d.checks).length);
      await opened.context.close();
    }
  });

  test("the terminal says nothing of the page when every check passed, nor for --replay", async () => {
    const passed = await grade(target.path, ["--only", "phase1.absent"]);
    expect(passed.exitCode, passed.stdout).toBe(0);
    expect(passed.stdout).not.toContain("See each crash");
    const failure = failures(pages.fixture.run.report!).find((c) => c.id === "phase1.crash-safety")!;
    const replay = failure.replay!.split(" ");
    const replayed = await grade(target.path, ["--only", failure.id, "--seed", replay[replay.indexOf("--seed") + 1]!, "--replay", replay[replay.indexOf("--replay") + 1]!]);
    expect(replayed.exitCode, replayed.stdout).toBe(1);
    expect(replayed.stdout).toContain("it still fails");
    expect(replayed.stdout).not.toContain("See each crash");
  });

  test("every failed check of the JSON report has its story and its replay command in the page, and Copy copies exactly the replay command", async () => {
    for (const name of ["starter", "fixture"] as const) {
      const { run, file } = pages[name];
      const failed = failures(run.report!);
      expect(failed.length).toBeGreaterThan(0);
      const { page, context } = await open(file);
      for (const c of failed) {
        const check = page.locator(`details[data-check="${c.id}"]`);
        expect(await check.locator("pre.story").textContent(), c.id).toBe(c.message);
        if (c.replay) expect(await check.locator("code.command").textContent(), c.id).toBe(c.replay);
        if (c.picture) expect(await check.locator("svg[role=img]").count(), c.id).toBe(1);
      }
      await context.close();
    }
    // Copy, once through the clipboard (permission granted) and once where there is none (the command is selected).
    const { run, file } = pages.fixture;
    const replayed = failures(run.report!).find((c) => c.replay)!;
    const clipboard = await open(file);
    await clipboard.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await clipboard.page.locator(`details[data-check="${replayed.id}"] button.copy`).click();
    await expect.poll(() => clipboard.page.locator(`details[data-check="${replayed.id}"] button.copy`).getAttribute("data-copied")).toBe("clipboard");
    expect(await clipboard.page.evaluate("navigator.clipboard.readText()")).toBe(replayed.replay);
    await clipboard.context.close();
    const fallback = await open(file, { noClipboard: true });
    await fallback.page.locator(`details[data-check="${replayed.id}"] button.copy`).click();
    expect(await fallback.page.locator(`details[data-check="${replayed.id}"] button.copy`).getAttribute("data-copied")).toBe("selection");
    expect(await fallback.page.evaluate("window.getSelection().toString()")).toBe(replayed.replay);
    expect(fallback.errors).toEqual([]);
    await fallback.context.close();
  });

  test("pressing Tab reaches every check, each with a visible focus ring", async () => {
    for (const name of ["starter", "fixture"] as const) {
      const { run, file } = pages[name];
      const ids = run.report!.deliverables.flatMap((d) => d.checks.map((c) => c.id));
      const { page, context } = await open(file);
      expect(await checksReachedByTab(page, ids), name).toEqual([...ids].sort());
      await context.close();
    }
  });
});

/** A crash inside a write: 4 of its 10 bytes reached the file. */
const PICTURE: CallsPicture = {
  kind: "calls",
  call: 'atomicCheckpoint(path, {"step":2})',
  ops: [
    { what: 'openSync(".checkpoint.json.*.tmp")' },
    { what: 'writeSync(".checkpoint.json.*.tmp")', bytes: 10 },
    { what: 'fsyncSync(".checkpoint.json.*.tmp")' },
    { what: 'renameSync(".checkpoint.json.*.tmp", "checkpoint.json")' },
  ],
  cut: { afterOps: 1, written: 4, how: "killed" },
  after: [
    { name: "checkpoint.json", bytes: 10, holds: "old", preview: filePreview(Buffer.from('{"step":1}')) },
    { name: ".checkpoint.json.*.tmp", bytes: 4, holds: "torn", preview: filePreview(Buffer.from('{"st'), Buffer.from('{"step":2}')) },
  ],
  before: [{ name: "checkpoint.json", bytes: 10, holds: "old", preview: filePreview(Buffer.from('{"step":1}')) }],
};

/** A power cut between two calls, leaving every kind of file. */
const POWER: CallsPicture = {
  kind: "calls",
  call: 'atomicCheckpoint(path, {"kind":"large","items":[{"step":0,"note":"a long state that wraps"}]})',
  ops: [{ what: 'writeFileSync("checkpoint.json"): open' }, { what: 'writeFileSync("checkpoint.json")', bytes: 103618 }, { what: 'writeFileSync("checkpoint.json"): close' }],
  cut: { afterOps: 2, how: "power cut" },
  after: [
    { name: "checkpoint.json", bytes: 0, holds: "empty" },
    { name: "checkpoint.json.bak", bytes: 12, holds: "new" },
    { name: "$TMPDIR/a-very-long-folder-name-that-goes-on-and-on/checkpoint.json.tmp", bytes: 7, holds: "other" },
  ],
};

const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert(2)"> and "quotes" & 'apostrophes'\n  second line, indented`;

const SYNTHETIC: Report = {
  schemaVersion: 3, target: "../a <b> target", seed: 7, score: 0, maxScore: 12, bonus: 0, maxBonus: 10,
  deliverables: [
    { id: "phase1", title: "Phase 1: <i>atomic</i> checkpoint", kind: "core", status: "graded", points: 0, maxPoints: 12, checks: [
      { id: "phase1.crash-safety", title: "crash at any point", status: "failed", points: 0, maxPoints: 12, crashStates: 3, picture: PICTURE,
        message: 'With the old checkpoint {"step":1} on disk, atomicCheckpoint(path, {"step":2}) was killed in the middle of writeSync: 4 of 10 bytes.\nOn restart, loadCheckpoint threw.',
        replay: "npm run grade -- --only phase1.crash-safety --seed 7 --replay 1:2" },
    ] },
    { id: "power-loss", title: "power loss", kind: "bonus", status: "graded", points: 0, maxPoints: 10, checks: [
      { id: "power-loss.never-torn", title: "never torn", status: "failed", points: 0, maxPoints: 6, crashStates: 1, picture: POWER, message: HOSTILE, replay: `npm run grade -- --only power-loss.never-torn --replay '<b>&amp;'` },
      { id: "power-loss.durable", title: `"><script>alert(3)</script>`, status: "blocked", points: 0, maxPoints: 4, crashStates: 0, message: "Scored only once power-loss.never-torn passes; fix that first." },
    ] },
  ],
  stats: { crashStates: 4, durationMs: 1 },
};

describe("the HTML report of a report built here", () => {
  const file = () => path.join(tmp.path, "synthetic.html");

  test("a picture of kind \"calls\": the SVG has one element per op, the marker's data-after-ops and data-written are the cut, each file is drawn with its label, and its text alternative says the same", async () => {
    fs.writeFileSync(file(), renderHtmlReport(SYNTHETIC));
    const { page, context, errors, requests, url } = await open(file());
    for (const [id, picture] of [["phase1.crash-safety", PICTURE], ["power-loss.never-torn", POWER]] as const) {
      const svg = page.locator(`details[data-check="${id}"] svg`);
      expect(await svg.count()).toBe(1);
      expect(await svg.getAttribute("role")).toBe("img");
      expect(await svg.getAttribute("aria-label")).toBe(pictureWords(picture));
      expect(await svg.locator("title").textContent()).toBe(pictureWords(picture));
      expect(await svg.locator("[data-op-index]").evaluateAll((es) => es.map((e) => Number(e.getAttribute("data-op-index"))))).toEqual(picture.ops.map((_, i) => i));
      const cut = svg.locator("[data-cut]");
      expect(await cut.count()).toBe(1);
      expect(await cut.getAttribute("data-after-ops")).toBe(String(picture.cut.afterOps));
      expect(await cut.getAttribute("data-written")).toBe(picture.cut.written === undefined ? null : String(picture.cut.written));
      for (const f of picture.after) {
        const drawn = svg.locator(`[data-file="${f.name}"]`);
        expect(await drawn.count(), f.name).toBe(1);
        expect(await drawn.getAttribute("data-holds")).toBe(f.holds);
        expect(await drawn.locator(".badge-label").textContent()).toBe(HOLDS_LABEL[f.holds]);
        expect((await drawn.textContent())!.replace(/\s+/g, "")).toContain(`${f.bytes.toLocaleString("en-US")}byte`);
      }
    }
    // The write's bar: 4 of its 10 bytes, as a share of the bar.
    const widths = await page.locator('details[data-check="phase1.crash-safety"] [data-cut] rect').evaluateAll((es) => es.map((e) => Number(e.getAttribute("width"))));
    expect(widths[1]! / widths[0]!).toBeCloseTo(0.4, 2);
    expect(await page.locator("text=4 of 10 bytes").count()).toBeGreaterThan(0);
    expect([errors, requests]).toEqual([[], [url]]);
    await context.close();
  });

  test("the folder when the call began and after the crash: each file with its size, what it holds and its bytes; a torn file's bytes after the tear are marked as never written, with their count", async () => {
    fs.writeFileSync(file(), renderHtmlReport(SYNTHETIC));
    const { page, context } = await open(file());
    const folders = page.locator('details[data-check="phase1.crash-safety"] .folders');
    for (const [side, files] of [["before", PICTURE.before!], ["after", PICTURE.after]] as const) {
      const shown = folders.locator(`[data-folder="${side}"] li.file`);
      expect(await shown.evaluateAll((es) => es.map((e) => [e.getAttribute("data-file"), e.getAttribute("data-holds"), Number(e.getAttribute("data-bytes"))]))).toEqual(files.map((f) => [f.name, f.holds, f.bytes]));
    }
    const torn = folders.locator('[data-folder="after"] li[data-holds="torn"]');
    expect(await torn.locator("pre.bytes").textContent()).toBe('{"st⟋ep":2}');
    expect(await torn.locator(".missing").textContent()).toBe('ep":2}');
    expect(await torn.locator(".missing-note").textContent()).toContain("the 6 bytes after it never reached the file");
    expect(await folders.locator('[data-folder="after"] li[data-holds="old"] pre.bytes').textContent()).toBe('{"step":1}');
    // A picture from a report written before folders were drawn has none, and no empty box.
    expect(await page.locator('details[data-check="power-loss.never-torn"] .folders').count()).toBe(0);
    await context.close();
  });

  test("a story holding <script>alert(1)</script> shows as text and runs nothing; titles, ids, the target and commands are escaped too", async () => {
    fs.writeFileSync(file(), renderHtmlReport(SYNTHETIC));
    const { page, context, errors, dialogs } = await open(file());
    const story = page.locator('details[data-check="power-loss.never-torn"] pre.story');
    expect(await story.textContent()).toBe(HOSTILE);
    expect(await story.locator("*").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.locator("img, i").count()).toBe(0);
    expect(await page.locator('details[data-check="power-loss.never-torn"] code.command').textContent()).toBe(SYNTHETIC.deliverables[1]!.checks[0]!.replay);
    expect(await page.locator('details[data-check="power-loss.durable"] .title').textContent()).toBe(`"><script>alert(3)</script>`);
    expect(await page.locator("h2").first().textContent()).toBe("Phase 1: <i>atomic</i> checkpoint");
    expect(await page.locator(".meta code").textContent()).toBe("../a <b> target");
    await page.waitForTimeout(200);
    expect([dialogs, errors]).toEqual([[], []]);
    await context.close();
  });

  test("screenshots of each page, light and dark, at 1280 and 360 px, go to .grade/screenshots/, and no page is wider than 360 px there", async () => {
    fs.writeFileSync(file(), renderHtmlReport(SYNTHETIC));
    const overflowing = [...(await screenshots(browser, "synthetic", file())), ...(await screenshots(browser, "fixture", pages.fixture.file)), ...(await screenshots(browser, "starter", pages.starter.file))];
    expect(overflowing).toEqual([]);
    expect(fs.readdirSync(SCREENSHOTS).filter((f) => f.endsWith(".png")).length).toBeGreaterThanOrEqual(12);
  });
});
