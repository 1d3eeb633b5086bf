// The "diff" picture in real grades of buggy fixtures, one failing each stretch-diff check: the
// JSON report's picture marks the divergent step the story expects, the step the story says the
// answer returned, and the paths the story says it left out or named wrongly; in the HTML report,
// a real browser finds the same on the SVG's elements (data-* attributes), and a screenshot is kept
// in .grade/screenshots/.
import { describe, expect, test } from "vitest";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import { diffWords } from "../report/html/svg-diff-words.js";
import type { DiffPicture } from "../contract/picture-diff.js";
import { checkOf, composeTarget, grade } from "./support/grade.js";
import { browserPerFile, openPage, screenshots } from "./support/browser.js";

const shared = browserPerFile();

/** What a story says of the answer and of the divergence it expected. */
interface Told {
  /** The step the story expects, and the step it says was returned (when it says one). */
  expected: number;
  returned?: number;
  /** The paths it says the answer left out, and those it says are no difference (when it judged paths). */
  leftOut?: string[];
  extra?: string[];
}

/** Paths as a story lists them (`["x"], [] (the empty path: the whole state)`), each as its JSON. */
function storyPaths(text: string): string[] {
  const json = `[${text.replace(/ and \d+ more$/, "").replace(/\[\] \(the empty path: the whole state\)/g, "[]")}]`;
  return (JSON.parse(json) as unknown[]).map((p) => JSON.stringify(p));
}

/** What `story` tells: "returned step 0; expected step 1", "returned step 1 with ...: it left out X; Y is not a path", or a loaded element that is not the task's state. */
function told(story: string): Told {
  const step = story.match(/returned step (\d+); expected step (\d+)/);
  if (step) return { returned: Number(step[1]), expected: Number(step[2]) };
  const paths = story.match(/returned step (\d+) with .*?\(in any order\): (?:it left out (.*?)(?:; |\.$))?(?:(.*) (?:is|are) not (?:a path|paths) where)?/);
  if (paths) return { returned: Number(paths[1]), expected: Number(paths[1]), leftOut: paths[2] ? storyPaths(paths[2]) : [], extra: paths[3] ? storyPaths(paths[3]) : [] };
  const loaded = story.match(/its element \d+ is not the task's state after step (\d+)/);
  if (loaded) return { expected: Number(loaded[1]) };
  throw new Error(`a story this test does not read: ${story}`);
}

// Two grades at a time (maxConcurrency, project `fixtures` in vitest.config.ts).
describe.concurrent("pictures of diffs in a grade", () => {
  test.each([
    { fixture: "off-by-one", check: "stretch-diff.first-step" },
    { fixture: "top-level-only", check: "stretch-diff.paths" },
    { fixture: "last-divergence", check: "stretch-diff.two-prompts" },
    { fixture: "sorted-by-name", check: "stretch-diff.two-prompts" },
  ])("$fixture, $check: the divergent step, the answer's step and the paths left out or wrongly named are the story's, drawn above it, and the SVG's elements say the same", async ({ fixture, check }) => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/stretch-diff", fixture));
    shared.keep(target);
    const html = path.join(target.path, "report.html");
    const run = await grade(target.path, ["--only", check, "--html", html]);
    const failed = checkOf(run.report, check)!;
    expect(failed.status).toBe("failed");
    const picture = failed.picture as DiffPicture;
    expect(picture?.kind).toBe("diff");
    const story = told(failed.message!.replace(/\s+/g, " "));
    expect(picture.step).toBe(story.expected);
    expect(picture.answer?.step).toBe(story.returned);
    const json = (paths: unknown[] | undefined) => (paths ?? []).map((p) => JSON.stringify(p));
    // The paths left out among those the picture carries are the first the story lists (all of them, when it carries every path).
    const leftOut = json(picture.paths.filter((p) => p.listed === false).map((p) => p.path));
    if (story.leftOut) {
      expect(leftOut).toEqual(story.leftOut.slice(0, picture.morePaths ? leftOut.length : undefined));
      expect(json(picture.answer?.extra)).toEqual(story.extra);
    } else expect(picture.paths.every((p) => p.listed === undefined)).toBe(true);
    // The terminal draws it between the check's id and its story.
    const drawnAt = run.stdout.indexOf(`${picture.call}: `, run.stdout.indexOf(check));
    expect(drawnAt).toBeGreaterThan(run.stdout.indexOf(check));
    expect(run.stdout.slice(drawnAt)).toMatch(new RegExp(`≠ ${picture.step} `));
    expect(drawnAt).toBeLessThan(run.stdout.indexOf(failed.message!.split("\n")[0]!.slice(0, 30)));

    const { page, context } = await openPage(shared.browser(), html);
    const svg = page.locator(`figure[data-picture="${check}"] svg.diff`);
    await expect(svg.count()).resolves.toBe(1);
    expect(await svg.getAttribute("aria-label")).toBe(diffWords(picture));
    expect(await svg.locator("title").textContent()).toBe(diffWords(picture));
    expect(await svg.locator("g.row[data-divergence]").getAttribute("data-step")).toBe(String(story.expected));
    const answer = svg.locator("g[data-answer]");
    await expect(answer.count()).resolves.toBe(story.returned === undefined ? 0 : 1);
    if (story.returned !== undefined) expect(await answer.getAttribute("data-answer-step")).toBe(String(story.returned));
    const attr = (selector: string, name: string) => svg.locator(selector).evaluateAll((els, n) => els.map((e) => e.getAttribute(n)!), name);
    expect(await attr("g.path[data-path]", "data-path")).toEqual(json(picture.paths.map((p) => p.path)));
    if (story.leftOut) {
      expect(await attr('g.path[data-listed="false"]', "data-path")).toEqual(leftOut);
      expect(await attr("g.path.extra", "data-extra-path")).toEqual(story.extra);
    }
    await context.close();
    const overflowing = await screenshots(shared.browser(), `diff-${fixture}-${check.split(".")[1]}`, html);
    expect(overflowing).toEqual([]);
  });
});
