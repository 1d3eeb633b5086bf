// The session-diffing checks' cases: each pair of histories carries the divergence it was made to
// have, and that is exactly where the two histories differ (told by a comparison written for these
// tests alone, stretch-diff-differences.ts); every kind of case the check promises is drawn in the
// batches it runs; the same seed draws the same cases, and no shared state is changed.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { DiffCase, Path } from "../checks/stretch-diff/divergence.js";
import { diffCase, diffCases, HAND_CASES, LOOK_ALIKES } from "../checks/stretch-diff/histories.js";
import { TRICKY } from "../grading/states.js";
import { differences, firstDifference, pathSet, same } from "./stretch-diff-differences.js";

/** The cases of one check's batches for `seed`, as many as it runs (divergence-check.ts). */
const checkCases = (seed: number) => fc.sample(diffCases(), { seed, numRuns: 60 }).flat();

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
const isContainer = (v: unknown) => v !== null && typeof v === "object";

/** What `state` holds at `path`, if anything. */
function at(state: unknown, path: Path): { value: unknown } | undefined {
  let value = state;
  for (const key of path) {
    if (!isContainer(value) || !Object.hasOwn(value as object, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return { value };
}

/** The divergence a comparison finds in the case's histories, and the one it carries, each with its paths as a set. */
function both(c: DiffCase) {
  const show = (d: { step: number; paths: Path[] } | null) => d && { step: d.step, paths: pathSet(d.paths) };
  return { found: show(firstDifference(c.a, c.b)), carried: show(c.expected) };
}

describe("the cases' own answers", () => {
  test("every hand-written case carries the divergence a comparison finds in it, and so does its mirror (a and b swapped, the same step and paths)", () => {
    for (const c of HAND_CASES) {
      const { found, carried } = both(c);
      expect(carried, JSON.stringify(c)).toEqual(found);
      expect(both({ a: c.b, b: c.a, expected: c.expected }).found).toEqual(carried);
    }
  });

  test("every drawn case carries exactly the first step where its histories differ and the set of paths where they differ there (null when equal)", () => {
    fc.assert(
      fc.property(diffCase(), (c) => {
        const { found, carried } = both(c);
        expect(carried).toEqual(found);
      }),
      { seed: 20261129, numRuns: 3000 },
    );
  });

  test("each path a drawn case carries is one of its own: none at or under another, the steps before it equal, every place above it a container of one kind on both sides, and at it a value only one side has or two that differ as a whole; b's values put at those paths in a's state give b's", () => {
    fc.assert(
      fc.property(diffCase(), ({ a, b, expected }) => {
        if (expected === null) return;
        const { step, paths } = expected;
        for (let s = 1; s < step; s++) expect(same(a[s - 1], b[s - 1]), `step ${s}`).toBe(true);
        if (step > Math.min(a.length, b.length)) return void expect(paths).toEqual([[]]);
        const [x, y] = [a[step - 1], b[step - 1]];
        for (const p of paths) {
          for (const q of paths) if (p !== q) expect(q.length >= p.length && p.every((k, i) => q[i] === k), `${JSON.stringify(q)} under ${JSON.stringify(p)}`).toBe(false);
          for (let n = 0; n < p.length; n++) {
            const [u, v] = [at(x, p.slice(0, n)), at(y, p.slice(0, n))];
            expect(u && v && isContainer(u.value) && kindOf(u.value) === kindOf(v.value)).toBe(true);
          }
          const [u, v] = [at(x, p), at(y, p)];
          if (u && v) expect(kindOf(u.value) !== kindOf(v.value) || (!isContainer(u.value) && u.value !== v.value), JSON.stringify(p)).toBe(true);
          else expect(u || v).toBeDefined();
        }
        expect(same(patched(x, y, paths), y)).toBe(true);
      }),
      { seed: 7, numRuns: 3000 },
    );
  });

  test("the independent comparison itself: key order is no difference; null, {}, [], 0, \"0\" and false are six; an index only one array has is a path of its own", () => {
    expect(differences({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toEqual([]);
    const kinds = [null, {}, [], 0, "0", false];
    for (const x of kinds) for (const y of kinds) expect(differences({ v: x }, { v: y })).toEqual(x === y ? [] : [["v"]]);
    expect(differences({ list: [1, 2] }, { list: [1, 2, 3, 4] })).toEqual([["list", 2], ["list", 3]]);
    expect(differences({ "0": { toString: 1 } }, { "0": {} })).toEqual([["0", "toString"]]);
    expect(firstDifference([1], [1, 2])).toEqual({ step: 2, paths: [[]] });
  });
});

/** `x` with `y`'s value (or nothing, where `y` has none) at each of `paths`. */
function patched(x: unknown, y: unknown, paths: Path[]): unknown {
  let out = structuredClone(x);
  for (const p of paths) {
    const from = at(y, p);
    if (p.length === 0) {
      out = structuredClone(from!.value);
      continue;
    }
    const parent = at(out, p.slice(0, -1))!.value as Record<string | number, unknown>;
    const key = p.at(-1)!;
    if (from) parent[key] = structuredClone(from.value);
    else if (Array.isArray(parent)) parent.length = Math.min(parent.length, Number(key));
    else delete parent[key];
  }
  return out;
}

describe("what one check's batches hold", () => {
  /** The kinds of case the handout's table promises, each told by what a case carries. */
  const KINDS: Record<string, (c: DiffCase) => boolean> = {
    "a difference at the first step": (c) => c.expected?.step === 1 && Math.min(c.a.length, c.b.length) > 1,
    "a difference at the last step": (c) => c.expected !== null && c.expected.step === c.a.length && c.a.length === c.b.length && c.a.length > 2,
    "a difference at a middle step": (c) => c.expected !== null && c.expected.step > 1 && c.expected.step < Math.min(c.a.length, c.b.length),
    "no difference at all": (c) => c.expected === null && c.a.length > 0,
    "key order only": (c) => c.expected === null && JSON.stringify(c.a) !== JSON.stringify(c.b),
    "a difference 20 levels deep or more": (c) => (c.expected?.paths ?? []).some((p) => p.length >= 20),
    "histories of different lengths": (c) => c.expected !== null && c.expected.step > Math.min(c.a.length, c.b.length),
    "arrays of different lengths (two indices or more only one has)": (c) => onlyOneHas(c).filter((p) => typeof p.at(-1) === "number").length >= 2,
    "a key only one side has": (c) => onlyOneHas(c).some((p) => typeof p.at(-1) === "string"),
    "an array turned in place (three indices or more, both sides holding each)": (c) => turned(c),
    "several paths at once": (c) => (c.expected?.paths.length ?? 0) >= 3,
  };

  test.each([1, 2, 3, 20261129])("seed %i: each kind of case the check promises is drawn", (seed) => {
    const cases = checkCases(seed);
    expect(Object.keys(KINDS).filter((k) => !cases.some(KINDS[k]!))).toEqual([]);
  });

  test("each look-alike pair (null and {}, 0 and \"0\", ...) is the only first difference of some case, as the whole state and inside one", () => {
    const pairName = (x: unknown, y: unknown) => [JSON.stringify(x), JSON.stringify(y)].sort().join(" vs ");
    const wanted = LOOK_ALIKES.flatMap(([x, y]) => [`${pairName(x, y)} as the whole state`, `${pairName(x, y)} inside it`]).sort();
    for (const seed of [1, 2, 3, 20261129]) {
      const seen = new Set<string>();
      for (const { a, b, expected } of checkCases(seed)) {
        if (!expected || expected.step > Math.min(a.length, b.length) || expected.paths.length !== 1) continue;
        const path = expected.paths[0]!;
        const where = path.length === 0 ? "as the whole state" : "inside it";
        seen.add(`${pairName(at(a[expected.step - 1], path)?.value, at(b[expected.step - 1], path)?.value)} ${where}`);
      }
      expect(wanted.filter((w) => !seen.has(w)), `seed ${seed}`).toEqual([]);
    }
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
});

/** The paths of a case's first divergence where only one side holds a value (not a step only one history has). */
function onlyOneHas({ a, b, expected }: DiffCase): Path[] {
  if (!expected || expected.step > Math.min(a.length, b.length)) return [];
  const [x, y] = [a[expected.step - 1], b[expected.step - 1]];
  return expected.paths.filter((p) => !at(x, p) !== !at(y, p));
}

/** Whether a case's first divergence is an array whose every index, three or more, holds another item on each side, the same items. */
function turned({ a, b, expected }: DiffCase): boolean {
  if (!expected || expected.step > Math.min(a.length, b.length)) return false;
  const [x, y] = [a[expected.step - 1], b[expected.step - 1]];
  const parents = new Set(expected.paths.filter((p) => typeof p.at(-1) === "number").map((p) => JSON.stringify(p.slice(0, -1))));
  return [...parents].some((parent) => {
    const [u, v] = [at(x, JSON.parse(parent)), at(y, JSON.parse(parent))];
    if (!Array.isArray(u?.value) || !Array.isArray(v?.value) || u.value.length !== v.value.length || u.value.length < 3) return false;
    const items = (list: unknown[]) => list.map((i) => JSON.stringify(i)).sort().join();
    return items(u.value) === items(v.value) && expected.paths.filter((p) => JSON.stringify(p.slice(0, -1)) === parent).length === u.value.length;
  });
}
