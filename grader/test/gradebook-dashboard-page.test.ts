// The class dashboard of a real batch, in a headless browser: five phase1 fixtures (two pairs
// with one bug each, written in different styles, and one more bug) and a folder that is no
// submission, graded by `npm run grade-batch`. The grouping of their real stories puts each pair
// together and the other bug apart; the page loads clean, shows the rows' pass rates and groups,
// is reached by Tab, and reads in light and dark, on a desktop and at 360 px (screenshots kept).
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { checksAcross } from "../tools/batch/dashboard/failure-groups.js";
import { gradebookPaths, readGradebook } from "../tools/batch/gradebook-files.js";
import type { Row } from "../tools/batch/gradebook.js";
import { browserPerFile, openPage, screenshots } from "./support/browser.js";

/** The fixtures graded: write-in-place and copy-instead-of-rename overwrite the checkpoint in place (one with writeFileSync, one by copying a temp over it); exclusive-temp and counter-temp-name reuse a temp name a crash left (a fixed one, a counter that restarts); load-prefers-temp loads a torn temp. */
const FIXTURES = ["write-in-place", "copy-instead-of-rename", "load-prefers-temp", "exclusive-temp", "counter-temp-name"];
/** The checks graded: these two, and round-trip, which they require. */
const ONLY = ["--only", "phase1.crash-safety", "--only", "phase1.stale-temp"];

describe("the class dashboard of a real batch", () => {
  const browsers = browserPerFile();
  let rows: Row[];
  let html: string;

  beforeAll(async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "dashboard-batch-" });
    browsers.keep(tmp);
    const subs = path.join(tmp.path, "class");
    for (const name of FIXTURES) {
      fs.cpSync(SOLUTION_DIR, path.join(subs, name), { recursive: true });
      fs.cpSync(path.join(REPO_ROOT, "grader/fixtures/phase1", name, "checkpoint.ts"), path.join(subs, name, "checkpoint.ts"));
    }
    fs.mkdirSync(path.join(subs, "not-a-submission"));
    const csv = path.join(tmp.path, "grades.csv");
    const run = await execa("npm", ["run", "--silent", "grade-batch", "--", subs, "--out", csv, ...ONLY], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1" } });
    if (run.exitCode !== 0) throw new Error(`grade-batch exited with ${run.exitCode}, expected 0:\n${run.stderr}`);
    rows = readGradebook(gradebookPaths(csv).json);
    html = gradebookPaths(csv).html;
  });

  test("two submissions with one bug in different styles group together; another bug with the same error does not", () => {
    const groups = (id: string) => checksAcross(rows).find((c) => c.id === id)!.groups.map((g) => ({ outcome: g.kind.outcome, place: g.kind.place, students: g.students.map((s) => s.submission).sort() }));
    expect(groups("phase1.crash-safety")).toEqual([
      { outcome: "loadCheckpoint threw SyntaxError", place: "killed right after checkpoint.json was emptied; checkpoint.json left empty", students: ["copy-instead-of-rename", "write-in-place"] },
      { outcome: "loadCheckpoint threw SyntaxError", place: "killed right after open of another file; checkpoint.json left old", students: ["load-prefers-temp"] },
    ]);
    expect(groups("phase1.stale-temp")).toEqual([{ outcome: "atomicCheckpoint threw Error (EEXIST)", place: "killed right after open of another file; checkpoint.json left old", students: ["counter-temp-name", "exclusive-temp"] }]);
    // Their stories differ: each student's own numbers and temp names, which the grouping sets aside.
    const stories = rows.filter((r) => ["counter-temp-name", "exclusive-temp"].includes(r.submission)).map((r) => r.report!.deliverables[0]!.checks.find((c) => c.id === "phase1.stale-temp")!.message);
    expect(stories[0]).not.toBe(stories[1]);
  });

  test("loads with no console error and no request but its own, and shows the rows' counts, pass rates and groups, each student once", async () => {
    const { page, context, url, requests, errors } = await openPage(browsers.browser(), html);
    try {
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      const graded = rows.filter((r) => !r.error && r.report);
      const figure = (name: string) => page.locator(`[data-figure="${name}"] .n`).textContent();
      expect([await figure("students"), await figure("graded"), await figure("errors")]).toEqual([String(rows.length), String(graded.length), "1"]);
      expect(await page.locator('[data-table="errors"] tr[data-row="not-a-submission"]').textContent()).toContain("no starter/ folder and no checkpoint.ts");
      // Each histogram counts every graded student once.
      for (const counts of await page.locator("figure.distribution").evaluateAll((figs) => figs.map((f) => [...f.querySelectorAll("tr[data-count]")].map((tr) => Number(tr.getAttribute("data-count"))))))
        expect(counts.reduce((a, b) => a + b, 0)).toBe(graded.length);
      const checkIds = [...new Set(graded.flatMap((r) => r.report!.deliverables.flatMap((d) => d.checks.map((c) => c.id))))];
      expect(checkIds.sort()).toEqual(["phase1.crash-safety", "phase1.round-trip", "phase1.stale-temp"]);
      for (const id of checkIds) {
        const statusOf = (r: Row) => r.report!.deliverables.flatMap((d) => d.checks).find((c) => c.id === id)!.status;
        const lost = graded.filter((r) => statusOf(r) !== "passed").map((r) => r.submission).sort();
        expect(await page.locator(`table.rates tr[data-check="${id}"] .rate-words`).textContent()).toBe(`${graded.length - lost.length} of ${graded.length} passed (${Math.round((100 * (graded.length - lost.length)) / graded.length)}%)`);
        const shown = await page.locator(`section.check-losses[data-check="${id}"] details.group`).evaluateAll((ds) => ds.map((d) => ({ count: Number(d.getAttribute("data-students")), names: [...d.querySelectorAll(".who [data-submission]")].map((a) => a.textContent), links: [...d.querySelectorAll(".who a")].map((a) => a.getAttribute("href")) })));
        expect(shown.flatMap((g) => g.names).sort()).toEqual(lost);
        for (const g of shown) expect(g.names.length).toBe(g.count);
        for (const link of shown.flatMap((g) => g.links)) expect(fs.existsSync(path.join(path.dirname(html), link!))).toBe(true);
      }
    } finally {
      await context.close();
    }
  });

  test("Tab reaches every group with a visible focus ring, and Enter opens it to its students and story", async () => {
    const { page, context } = await openPage(browsers.browser(), html);
    try {
      const total = await page.locator("details.group").count();
      const reached = new Set<string>();
      for (let i = 0; i < (await page.locator("a[href], summary").count()) + 2; i++) {
        await page.keyboard.press("Tab");
        const focused = (await page.evaluate("(() => { const e = document.activeElement; const d = e && e.closest('details.group'); return d && e.tagName === 'SUMMARY' ? { key: d.closest('[data-check]').getAttribute('data-check') + ' ' + d.getAttribute('data-kind'), outline: getComputedStyle(e).outlineStyle } : null; })()")) as { key: string; outline: string } | null;
        if (!focused) continue;
        expect(focused.outline, `${focused.key} has focus with no visible ring`).toBe("solid");
        reached.add(focused.key);
      }
      expect(reached.size).toBe(total);
      const first = page.locator("details.group").first();
      await first.locator("summary").focus();
      await page.keyboard.press("Enter");
      expect(await first.getAttribute("open")).not.toBeNull();
      expect(await first.locator("pre.story").isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  test("reads in light and dark, on a desktop and at 360 px, with nothing wider than the screen", async () => {
    expect(await screenshots(browsers.browser(), "gradebook", html)).toEqual([]);
  });
});
