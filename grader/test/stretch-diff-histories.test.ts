// The session-diffing checks' own pieces: the grader's divergence on hand-made histories, and
// histories made by fast-check that are the same for the same seed and never change the shared
// states they are built from (two checks of one grade build them at once).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { diffCases, HAND_CASES, LOOK_ALIKES } from "../checks/stretch-diff/histories.js";
import { referenceDivergence } from "../checks/stretch-diff/reference.js";
import { TRICKY } from "../grading/states.js";

describe("session diffing", () => {
  test("the grader's divergence of hand-made histories", () => {
    const at = (a: unknown[], b: unknown[]) => referenceDivergence(a, b);
    expect(at([{ x: 1 }, { x: 2 }], [{ x: 1 }, { x: 3 }])).toEqual({ step: 2, paths: [["x"]] });
    expect(at([{ a: 1, b: { c: 2, d: 3 } }], [{ b: { d: 3, c: 2 }, a: 1 }])).toBeNull();
    expect(at([], [])).toBeNull();
    expect(at([1], [1, 2])).toEqual({ step: 2, paths: [[]] });
    expect(at([{ list: [1, 2] }], [{ list: [1, 2, 3] }])).toEqual({ step: 1, paths: [["list", 2]] });
    expect(at([{ v: {} }], [{ v: [] }])).toEqual({ step: 1, paths: [["v"]] });
    expect(at([{ "0": 1 }], [{ "0": 2 }])).toEqual({ step: 1, paths: [["0"]] });
    expect(at([[0, null]], [["0", null]])).toEqual({ step: 1, paths: [[0]] });
    for (const c of HAND_CASES) expect(referenceDivergence(c.b, c.a)?.step).toBe(referenceDivergence(c.a, c.b)?.step);
  });

  test("histories are the same for the same seed and leave the shared states unchanged", () => {
    const before = JSON.stringify([TRICKY, LOOK_ALIKES]);
    const sample = () => JSON.stringify(fc.sample(diffCases(), { seed: 42, numRuns: 200 }));
    const first = sample();
    // A property that fails, so fast-check also shrinks what it generated: neither may touch the shared states.
    const shrunk = fc.check(fc.property(diffCases(), (cases) => cases.length < 3), { seed: 7, numRuns: 200 });
    expect(shrunk.failed).toBe(true);
    expect(shrunk.numShrinks).toBeGreaterThan(0);
    expect(shrunk.counterexample?.[0]).toHaveLength(3);
    expect(sample()).toBe(first);
    expect(JSON.stringify([TRICKY, LOOK_ALIKES])).toBe(before);
  });

  test("one check's batches make each look-alike pair (null and {}, 0 and \"0\", ...) the only first difference, as the whole state and inside one", () => {
    const valueAt = (state: unknown, path: (string | number)[]) => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], state);
    const pairName = (x: unknown, y: unknown) => [JSON.stringify(x), JSON.stringify(y)].sort().join(" vs ");
    const wanted = LOOK_ALIKES.flatMap(([x, y]) => [`${pairName(x, y)} as the whole state`, `${pairName(x, y)} inside it`]).sort();
    for (const seed of [1, 2, 3, 20261129]) {
      const seen = new Set<string>();
      // As many batches as the check runs (divergence-check.ts).
      for (const { a, b } of fc.sample(diffCases(), { seed, numRuns: 60 }).flat()) {
        const found = referenceDivergence(a, b);
        if (!found || found.step > Math.min(a.length, b.length) || found.paths.length !== 1) continue;
        const path = found.paths[0]!;
        const where = path.length === 0 ? "as the whole state" : "inside it";
        seen.add(`${pairName(valueAt(a[found.step - 1], path), valueAt(b[found.step - 1], path))} ${where}`);
      }
      expect(wanted.filter((w) => !seen.has(w)), `seed ${seed}`).toEqual([]);
    }
  });
});
