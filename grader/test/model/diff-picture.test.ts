// The picture of a stretch-diff failure (checks/stretch-diff/diff-picture.ts) and its terminal
// lines (contract/picture-lines-diff.ts): made from the histories, the divergence their case carries
// and the answer the story judges, it marks the step and the paths the story names, and it fits any
// terminal, with or without colour.
import fc from "fast-check";
import pc from "picocolors";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import { DEFAULT_PROMPT, expectedStates } from "../../../lab/task.js";
import { judgeAnswer } from "../../checks/stretch-diff/answers.js";
import { answerPicture, loadedPicture } from "../../checks/stretch-diff/diff-picture.js";
import { byPath, showPaths, type DiffCase, type Judged, type Path } from "../../checks/stretch-diff/divergence.js";
import { diffCases, HAND_CASES } from "../../checks/stretch-diff/histories.js";
import { labPaths, promptRunsDivergence } from "../../checks/stretch-diff/lab-runs.js";
import { diffLines } from "../../report/picture-lines-diff.js";
import type { DiffPicture } from "../../contract/picture-diff.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import { firstDifference } from "../stretch-diff-differences.js";

/** What a call that returned `value` sends back. */
function returned(value: unknown): CallResult {
  return { status: "returned", value: { digest: "d", preview: JSON.stringify(value) ?? "undefined", isNull: value === null, value } };
}

/** The picture of `value` returned for `c`, judged on `judged`; throws when there is none. */
function drawn(c: DiffCase, value: unknown, judged: Judged): DiffPicture {
  const picture = answerPicture({ call: "firstDivergence(a, b)", names: ["a", "b"], ...c, result: returned(value), judged });
  if (!picture) throw new Error("no picture");
  return picture;
}

/** The paths a story lists, as it lists them: `["x"], ["y",0]`, the empty path in its own words. */
const listedAs = (paths: Path[]) => showPaths(paths);

/** Every hand-written pair and those of eight of fast-check's batches, each with a divergence. */
const CASES: DiffCase[] = [...HAND_CASES, ...fc.sample(diffCases(), { seed: 17, numRuns: 8 }).flat()].filter((c) => c.expected !== null);

const PROMPT_B = "Summarise the incident report, two findings per step.";
const A = expectedStates({ prompt: DEFAULT_PROMPT }).slice(1);
const B = expectedStates({ prompt: PROMPT_B }).slice(1);
/** Histories A and B as the two-prompts check compares them, with the divergence it expects. */
const AB = { a: A, b: B, expected: promptRunsDivergence(DEFAULT_PROMPT, PROMPT_B) };

describe("the picture of a wrong answer of firstDivergence", () => {
  test("a wrong step: the picture's divergence is the step the story expects, its paths those the story names (in its order, the rest counted), what each side holds there, and the answer's mark the step the story says it returned", () => {
    expect(CASES.length).toBeGreaterThan(30);
    for (const c of CASES) {
      const expected = c.expected!;
      const answer = { step: expected.step + 1, paths: [] };
      const story = judgeAnswer(returned(answer), c, "step")!;
      const picture = drawn(c, answer, "step");
      expect(story).toContain(`returned step ${picture.answer!.step}; expected step ${picture.step}`);
      const shown = picture.paths.map((p) => p.path);
      expect(listedAs(shown) + (picture.morePaths ? ` and ${picture.morePaths} more` : "")).toBe(showPaths(expected.paths));
      // A step only one history has is told by which one has it; any other, by its paths.
      const onlyOne = expected.step > Math.min(c.a.length, c.b.length);
      if (onlyOne) expect(story).toContain(`only ${picture.paths[0]!.in} has step ${picture.step}`);
      else expect(story).toContain(showPaths(expected.paths));
      for (const p of picture.paths) {
        const [x, y] = [c.a[expected.step - 1], c.b[expected.step - 1]].map((s, i) => (expected.step > [c.a, c.b][i]!.length ? undefined : walk(s, p.path)));
        expect(p.in, JSON.stringify(p.path)).toBe(x && y ? "both" : x ? "a" : "b");
        if (x) expect(p.a).toBe(clip(JSON.stringify(x.value)));
        if (y) expect(p.b).toBe(clip(JSON.stringify(y.value)));
      }
      expect(picture.rows.map((r) => r.step)).toContain(expected.step);
    }
  });

  test("the right step with wrong paths (judged on its paths): each path the story says it left out is marked left out, the others listed, and the paths it returned that are no difference are the answer's extra", () => {
    const c = HAND_CASES.find((h) => JSON.stringify(h.a) === '[{"x":1,"y":[1,2],"z":{"w":true}},5]')!;
    const answer = { step: 1, paths: [["x"], ["y"], ["extra"], ["x"]] };
    const story = judgeAnswer(returned(answer), c, "paths")!;
    const picture = drawn(c, answer, "paths");
    const leftOut = picture.paths.filter((p) => p.listed === false).map((p) => p.path);
    expect(story).toContain(`it left out ${showPaths(leftOut)};`);
    expect(picture.paths.filter((p) => p.listed).map((p) => p.path)).toEqual([["extra"], ["x"]]);
    expect(picture.answer!.extra).toEqual([["y"]]);
    expect(story).toContain(`${showPaths(picture.answer!.extra!)} is not a path`);
    expect(picture.paths.find((p) => p.path[0] === "extra")).toMatchObject({ in: "b", b: "null" });
    // A wrong step is judged on its step alone: no path is marked.
    expect(drawn(c, { step: 2, paths: [["x"]] }, "paths").paths.every((p) => p.listed === undefined)).toBe(true);
  });

  test("null for histories that differ, a step when they are equal, a value that is no answer, and a throw: the answer says what the story says, and points at a row only when either history has that step", () => {
    const unequal = { a: [{ n: 1 }, { n: 2 }, { n: 3 }], b: [{ n: 1 }], expected: { step: 2, paths: [[]] } };
    const none = drawn(unequal, null, "step");
    expect(none.answer).toEqual({ said: "returned null" });
    expect(none.rows).toEqual([{ step: 2, a: '{"n":2}' }]);
    expect(none.paths).toEqual([{ path: [], in: "a", a: '{"n":2}' }]);
    const equal = { a: [{ a: 1, b: 2 }, { a: 1 }], b: [{ b: 2, a: 1 }, { a: 1 }], expected: null };
    const step = drawn(equal, { step: 1, paths: [] }, "step");
    expect(step).toMatchObject({ step: null, paths: [], morePaths: 0, answer: { step: 1 }, rows: [{ step: 1 }] });
    expect(judgeAnswer(returned({ step: 1, paths: [] }), equal, "step")).toContain("expected null");
    expect(drawn(unequal, { step: "2" }, "step").answer).toEqual({ said: 'returned {"step":"2"}' });
    expect(drawn(unequal, { step: 0 }, "step").rows.map((r) => r.step)).toEqual([2]);
    const threw = answerPicture({ call: "firstDivergence(a, b)", names: ["a", "b"], ...unequal, result: { status: "threw", error: { name: "TypeError", message: "x is undefined", notImplemented: false } }, judged: "step" });
    expect(threw?.answer).toEqual({ said: "threw TypeError: x is undefined" });
  });

  test("a call that did not return or throw, or histories the builder cannot read, give no picture rather than a wrong one", () => {
    const c = HAND_CASES[0]!;
    expect(answerPicture({ call: "firstDivergence(a, b)", names: ["a", "b"], ...c, result: { status: "timed-out", detail: "did not return within 5 s" }, judged: "step" })).toBeNull();
    const unreadable = new Proxy([], { get: () => { throw new Error("unreadable"); } });
    expect(answerPicture({ call: "firstDivergence(a, b)", names: ["a", "b"], a: unreadable, b: c.b, expected: c.expected, result: returned(null), judged: "step" })).toBeNull();
  });

  test("a history loadHistory gave back sorted by name: the picture diverges at the step it is given, where the task's state is not the loaded one, with each path where they differ; no picture for one that is not an array, was not returned, or whose divergence is not known", () => {
    const sorted = [A[0], A[9], ...A.slice(1, 9)];
    const divergence = { step: 2, paths: labPaths({ prompt: DEFAULT_PROMPT, step: 10 }, { prompt: DEFAULT_PROMPT, step: 2 }) };
    const picture = loadedPicture("loadHistory(historyDir) for prompt A", returned(sorted), A, divergence)!;
    expect(picture).toMatchObject({ step: 2, a: { name: "loaded", steps: 10 }, b: { name: "the task's", steps: 10 } });
    expect(picture.answer).toBeUndefined();
    expect(picture.paths.length + picture.morePaths).toBe(firstDifference(sorted, A)!.paths.length);
    expect(picture.paths.map((p) => p.path)).toEqual(firstDifference(sorted, A)!.paths.sort(byPath).slice(0, picture.paths.length));
    // The loaded state is step 10's: it holds the notes of steps 3 to 10, which the task's state after step 2 has not.
    expect(picture.paths.find((p) => JSON.stringify(p.path) === '["notes",2]')).toMatchObject({ in: "a" });
    expect(picture.paths.find((p) => p.path[0] === "chain")).toMatchObject({ in: "both", a: JSON.stringify(A[9]!.chain), b: JSON.stringify(A[1]!.chain) });
    expect(loadedPicture("loadHistory", returned({ 0: A[0] }), A, divergence)).toBeNull();
    expect(loadedPicture("loadHistory", returned(sorted), A, null)).toBeNull();
    expect(loadedPicture("loadHistory", { status: "threw", error: { name: "Error", message: "no", notImplemented: false } }, A, divergence)).toBeNull();
  });
});

/** The value at `path` in `state`, if it has one there. */
function walk(state: unknown, path: Path): { value: unknown } | undefined {
  let value = state;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return { value };
}

/** JSON as the picture shortens a value at a path: 24 characters at most. */
function clip(text: string): string {
  return [...text].length <= 24 ? text : `${[...text].slice(0, 23).join("")}…`;
}

describe("the picture in the terminal", () => {
  const pictures: [string, DiffPicture][] = [
    ["a step too late", drawn({ a: [1, 2, 3, 4], b: [1, 2, 9, 8], expected: { step: 3, paths: [[]] } }, { step: 4, paths: [[]] }, "step")],
    ["a step neither history has", drawn({ a: [{ x: 1 }, { x: 2 }], b: [{ x: 0 }, { x: 2 }], expected: { step: 1, paths: [["x"]] } }, { step: 0, paths: [] }, "step")],
    ["a step too early", drawn({ a: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }], b: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 7 }], expected: { step: 4, paths: [["n"]] } }, { step: 2, paths: [] }, "step")],
    ["prompts A and B with 3 of 51 paths", answerPicture({ call: "firstDivergence(history A, history B)", names: ["history A", "history B"], ...AB, result: returned({ step: 1, paths: [["chain"], ["notes"], ["prompt"]] }), judged: "paths" })!],
    ["prompts A and B, the last step", answerPicture({ call: "firstDivergence(history A, history B)", names: ["history A", "history B"], ...AB, result: returned({ step: 10, paths: [] }), judged: "paths" })!],
    ["equal histories", drawn({ a: [{ a: 1, b: 2 }, { a: 1 }], b: [{ b: 2, a: 1 }, { a: 1 }], expected: null }, { step: 1, paths: [] }, "step")],
  ];
  for (const [name, picture] of pictures)
    for (const width of [60, 80, 120])
      for (const colour of [false, true])
        test(`${name} at ${width} columns ${colour ? "with" : "without"} colour: at most 12 lines, none wider than the terminal, "≠" on the divergent step's line and "▶" on the answer's`, () => {
          const lines = diffLines(picture, { width, indent: 6, c: pc.createColors(colour) });
          expect(lines.length).toBeGreaterThan(2);
          expect(lines.length).toBeLessThanOrEqual(12);
          for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
          const plain = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
          const marked = (sign: string) => plain.find((l) => l.slice(6, 8).includes(sign))?.slice(8).trim().split(" ")[0];
          if (picture.step !== null) expect(marked("≠")).toBe(String(picture.step));
          else expect(plain.some((l) => l.includes("≠"))).toBe(false);
          const answer = picture.answer!;
          if (picture.rows.some((r) => r.step === answer.step)) expect(marked("▶")).toBe(String(answer.step));
          else expect(plain.find((l) => l.trimStart().startsWith("▶"))).toContain(answer.said);
        });

  test("without colour, every mark is a sign and words: the divergence, the answer, a path left out, one listed, one returned that is no difference, and the paths not shown counted", () => {
    const [, many] = pictures[3]!;
    const plain = diffLines(many, { width: 120, indent: 6, c: pc.createColors(false) }).join("\n");
    expect(plain).toContain("≠ 1");
    expect(plain).toContain("first divergence (returned)");
    expect(plain).toContain('✓ listed ["chain"]');
    expect(plain).toContain('✗ left out ["notes",0,"text"]');
    expect(plain).toContain('✗ returned, no difference: ["notes"]');
    const shown = plain.split("\n").filter((l) => /✓ listed|✗ left out/.test(l)).length;
    expect(plain).toContain(`… and ${many.paths.length + many.morePaths - shown} more paths`);
    const [, late] = pictures[0]!;
    const lines = diffLines(late, { width: 80, indent: 6, c: pc.createColors(false) });
    expect(lines.join("\n")).toContain("steps 1-2: the same in a and b");
    expect(lines.find((l) => l.includes("▶"))).toContain("returned step 4");
    expect(lines.find((l) => l.includes("≠"))).toContain("first divergence");
  });
});
