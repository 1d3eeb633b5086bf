// The "runs" picture in real grades of one buggy fixture per deliverable (Phase 2, Phase 3,
// stretch-git): the JSON report's picture puts the kill at the run and step the story names and
// marks the step the story names as wrong; in the HTML report, a real browser finds the same on
// the SVG's elements (data-* attributes), with every line of its words inside its box, and a
// screenshot is kept in .grade/screenshots/. A crash replayed from its run's trace also shows the
// folder before and after it, with a torn write's tear.
import { describe, expect, test } from "vitest";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import { assertMatchesSchema } from "../schemas.js";
import type { RunsPicture } from "../contract/picture-runs.js";
import { runTaskStep } from "../checks/phase2/task-run.js";
import { normaliseName } from "../crash/names.js";
import { DEFAULT_LIMITS } from "../sandbox/messages/limits.js";
import { Sandbox } from "../sandbox/supervisor/host-client.js";
import { bundleTarget } from "../target/bundle.js";
import { scratchHost } from "./support/host.js";
import { checkOf, composeTarget, grade } from "./support/grade.js";
import { browserPerFile, openPage, screenshots } from "./support/browser.js";

const shared = browserPerFile();

/** Where the story says run 1 was killed: its step and where in it, as the picture's `at` names it. */
function storyKill(story: string): { step: number; at: string } | null {
  const m = story.match(/^(?:Run|A session) .*?killed (?:at the boundary after step (\d+)|after step (\d+)'s side effect, before the boundary after it|inside runStep\((\d+)\)|with SIGKILL at its change to the disk number \d+ of \d+.*?, after step (\d+)'s side effect)/);
  if (!m) return null;
  if (m[1]) return { step: Number(m[1]), at: "after" };
  if (m[2]) return { step: Number(m[2]), at: "in-window" };
  if (m[3]) return { step: Number(m[3]), at: "in-step" };
  return { step: Number(m[4]), at: "after" };
}

// Two grades at a time (maxConcurrency, project `fixtures` in vitest.config.ts).
describe.concurrent("pictures of runs in a grade", () => {
  test.each([
    { fixture: "phase2/skip-step-on-resume", check: "phase2.boundary-crash", wrong: /step (\d+) never ran/ },
    { fixture: "phase3/restart-after-kill", check: "phase3.killed-session", wrong: /step (\d+) ran \d+ times/ },
    { fixture: "stretch-git/no-reset", check: "stretch-git.killed-in-commit", wrong: null },
  ])("$fixture, $check: the kill is at the run and step the story names, the wrong step is the story's, and the SVG's elements say the same", async ({ fixture, check, wrong }) => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", fixture));
    shared.keep(target);
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

    const { page, context } = await openPage(shared.browser(), html);
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
    // Every line of the picture's words, its legend's included, lies inside the SVG's box: one past it is cut off, and no overflow check of the page sees it.
    const outside = await svg.evaluate((el) => {
      const box = (el as unknown as { viewBox: { baseVal: { width: number; height: number } } }).viewBox.baseVal;
      return [...el.querySelectorAll("tspan")].flatMap((t) => {
        const b = (t as unknown as { getBBox(): { x: number; y: number; width: number; height: number } }).getBBox();
        return b.y + b.height > box.height + 1 || b.x + b.width > box.width + 1 ? [t.textContent] : [];
      });
    });
    expect(outside).toEqual([]);
    await context.close();
    const overflowing = await screenshots(shared.browser(), `runs-${fixture.replace("/", "-")}`, html);
    expect(overflowing).toEqual([]);
  });
});

describe("the folders before and after a crashed run, in a grade", () => {
  const host = scratchHost();

  /**
   * What a real replay leaves of a run of the target's runTask with maxSteps `budget` cut inside
   * its write of `whole` bytes after `reached` of them: "name size" for each file, named as the picture names it.
   */
  async function replayedDisk(targetDir: string, budget: number, whole: number, reached: number): Promise<string[]> {
    const bundle = await bundleTarget({ targetDir, file: "runner.ts", outFile: path.join(host.work, "runner.cjs") });
    if (!bundle.ok) throw new Error(bundle.problem);
    const box = new Sandbox({ hostFile: host.hostFile, config: { modules: { runner: bundle.file }, targetDir, work: path.join(host.work, "w"), callMs: 5_000, seed: 1 }, limits: DEFAULT_LIMITS });
    try {
      const recorded = await box.run("runner", { steps: [runTaskStep(budget)] }, { record: true });
      const at = recorded.trace!.entries.findIndex((e) => e.kind === "write" && e.bytes.byteLength === whole);
      expect(at).toBeGreaterThan(-1);
      const replayed = await box.run("runner", { from: [{ traceId: recorded.traceId!, cut: { at, bytes: reached } }], steps: [] }, { listDisk: true });
      return replayed.disk!.map((f) => `${normaliseName(f.path)} ${f.size}`).sort();
    } finally {
      await box.close();
    }
  }

  test("phase2/commit-before-step, phase2.crash-schedules: the folder after the crash holds the temp file the story says was cut, at the bytes it says reached it, torn with the rest missing, and its files are those a real replay of that crash leaves; the report matches its schema; the page shows each file of the folder after the crash with what it holds, the torn one's missing part, under the headings of both folders", async () => {
    const check = "phase2.crash-schedules";
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/phase2/commit-before-step"));
    shared.keep(target);
    const html = path.join(target.path, "report.html");
    const run = await grade(target.path, ["--only", check, "--html", html]);
    const failed = checkOf(run.report, check)!;
    const picture = failed.picture as RunsPicture;
    const story = failed.message!.replace(/\s+/g, " ");
    // The story's one crash tears a write: its file, and how many of its bytes reached it.
    expect(story.match(/was killed/g)).toHaveLength(1);
    const cut = story.match(/^Run 1 .*?in the middle of writeSync\("([^"]+)"\): (\d+) of (\d+) bytes had reached the file/)!;
    expect(cut).not.toBeNull();
    expect(picture.folders?.run).toBe(1);
    expect(picture.folders!.before).toEqual([]);
    const torn = picture.folders!.after.find((f) => f.name === cut[1])!;
    expect(torn).toMatchObject({ bytes: Number(cut[2]), holds: "torn" });
    expect(torn.preview?.missingBytes).toBe(Number(cut[3]) - Number(cut[2]));
    const budget = Number(story.match(/^Run 1 with maxSteps (\d+)/)![1]);
    const after = picture.folders!.after.map((f) => `${f.name} ${f.bytes}`).sort();
    expect(after).toEqual(await replayedDisk(target.path, budget, Number(cut[3]), Number(cut[2])));
    assertMatchesSchema("report", run.report, "the report with the folders");

    const { page, context } = await openPage(shared.browser(), html);
    const folders = page.locator(`details[data-check="${check}"] .folders`);
    await expect(folders.locator('[data-folder="before"] h4').textContent()).resolves.toBe("When run 1 started");
    await expect(folders.locator('[data-folder="after"] h4').textContent()).resolves.toBe("After the crash");
    const shown = await folders.locator('[data-folder="after"] li.file').evaluateAll((els) => els.map((e) => `${e.getAttribute("data-file")} ${e.getAttribute("data-bytes")} ${e.getAttribute("data-holds")}`));
    expect(shown).toEqual(picture.folders!.after.map((f) => `${f.name} ${f.bytes} ${f.holds}`));
    const missing = folders.locator(`li.file[data-holds="torn"][data-file="${cut[1]}"] .missing`);
    await expect(missing.count()).resolves.toBe(1);
    expect(await missing.isVisible()).toBe(true);
    expect((await missing.textContent())!.length).toBeGreaterThan(0);
    await context.close();
    expect(await screenshots(shared.browser(), "runs-folders-phase2-commit-before-step", html)).toEqual([]);
  });
});
