// Pairs of histories whose first divergence is known from how they were made, never found by
// comparing them. History a is drawn; history b is made from it:
// - equal: every state of a again, its keys perhaps in another order: no divergence;
// - shorter or longer: a's first states again (keys perhaps reordered), then b stops early or
//   goes on: the first step only one of them has, with the path [] (the whole state);
// - planted: a's states before a chosen step again (keys perhaps reordered); at that step, a
//   change at each of a few places chosen so that none is at, above or under another, each change
//   made so that the two sides differ exactly at the paths it names; then anything.
// A change may set a's value at its place too (one of a look-alike pair, an array of distinct
// items to turn): a is drawn, so shaping it is part of drawing it.
import fc from "fast-check";
import { deepState, smallJsonState } from "../../grading/states.js";
import type { DiffCase, Path } from "./divergence.js";

type Json = unknown;

/**
 * Pairs of values of different kinds that a sloppy comparison takes for equal: typeof says
 * "object" for null, {} and [] alike; == says 0 equals "0" and false; a falsy test lumps "" with null.
 */
export const LOOK_ALIKES: readonly (readonly [Json, Json])[] = [[null, {}], [null, []], [0, "0"], [0, false], ["", null], [[], {}]];

/** Which history holds what only one of them has. */
type Side = "a" | "b";

/** Where a change goes in a state: the whole state, the end of its first-child chain, or any of its places (the pick modulo how many it has). */
type PlaceDraw = { at: "whole" } | { at: "deepest" } | { at: "any"; pick: number };

/** What a change does at its place. */
type Change =
  /** b holds a value of another kind, or another string, number or boolean. */
  | { change: "leaf"; pick: number }
  /** a holds one value of a look-alike pair, b the other, inside `nest` levels both share. */
  | { change: "look-alike"; pair: number; swap: boolean; nest: number }
  /** An object there, with a key only `side` has. */
  | { change: "key"; key: string; value: Json; side: Side }
  /** An array there, with `items` more at its end on `side`. */
  | { change: "items"; items: Json[]; side: Side }
  /** Distinct items there, turned by `by` places in b: every index holds another item. */
  | { change: "turn"; items: Json[]; by: number };

interface Plant {
  place: PlaceDraw;
  change: Change;
}

/** How a pair is made, before it is made. */
type Shape =
  | { kind: "equal"; a: Json[]; turn: number }
  | { kind: "shorter"; a: Json[]; keep: number; turn: number }
  | { kind: "longer"; a: Json[]; extra: Json[]; turn: number }
  | { kind: "planted"; a: Json[]; step: "first" | "last" | number; plants: Plant[]; later: "copies" | Json[]; turn: number };

/** A state: small JSON values mostly, sometimes one nested 20 to 100 levels deep. */
const state = fc.oneof({ arbitrary: smallJsonState(), weight: 9 }, { arbitrary: deepState(), weight: 1 });

/** An object key: never "__proto__", which the lab's states never hold. */
const key = fc.oneof(fc.constantFrom("0", "1", "step", "notes", ""), fc.string({ unit: "grapheme", maxLength: 4 })).filter((k) => k !== "__proto__");

/** A value with nothing inside it: a string, number, boolean, null, {} or []. */
const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constantFrom(null, {}, [], "0", 0, false, ""));

const side = fc.constantFrom<Side>("a", "b");

const lookAlike = fc.record({ change: fc.constant("look-alike" as const), pair: fc.nat({ max: LOOK_ALIKES.length - 1 }), swap: fc.boolean(), nest: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })) });

const change: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: fc.record({ change: fc.constant("leaf" as const), pick: fc.nat() }), weight: 3 },
  { arbitrary: lookAlike, weight: 3 },
  { arbitrary: fc.record({ change: fc.constant("key" as const), key, value: smallJsonState(), side }), weight: 2 },
  { arbitrary: fc.record({ change: fc.constant("items" as const), items: fc.array(smallJsonState(), { minLength: 1, maxLength: 3 }), side }), weight: 2 },
  {
    // Items that differ from one another (as JSON: 0 and "0" are two), so that each one moved is a difference at its index.
    arbitrary: fc.record({ change: fc.constant("turn" as const), items: fc.uniqueArray(leaf, { minLength: 2, maxLength: 5, selector: (v) => JSON.stringify(v) }), by: fc.nat() }),
    weight: 1,
  },
);

const place: fc.Arbitrary<PlaceDraw> = fc.oneof(
  { arbitrary: fc.constant({ at: "whole" as const }), weight: 1 },
  { arbitrary: fc.constant({ at: "deepest" as const }), weight: 1 },
  { arbitrary: fc.record({ at: fc.constant("any" as const), pick: fc.nat() }), weight: 3 },
);

/** A few changes at once, or one look-alike pair alone (so each pair is often the only difference, as the whole state too). */
const plants: fc.Arbitrary<Plant[]> = fc.oneof(
  { arbitrary: fc.array(fc.record({ place, change }), { minLength: 1, maxLength: 3 }), weight: 3 },
  { arbitrary: fc.record({ place: fc.oneof(fc.constant({ at: "whole" as const }), place), change: lookAlike }).map((p) => [p]), weight: 2 },
);

/** How b's keys are reordered where it holds a's states again: 0 leaves them as they are. */
const turn = fc.nat({ max: 5 });

const shape: fc.Arbitrary<Shape> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("equal" as const), a: fc.array(state, { maxLength: 6 }), turn }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("shorter" as const), a: fc.array(state, { minLength: 1, maxLength: 6 }), keep: fc.nat(), turn }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("longer" as const), a: fc.array(state, { maxLength: 6 }), extra: fc.array(state, { minLength: 1, maxLength: 3 }), turn }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("planted" as const),
      a: fc.array(state, { minLength: 1, maxLength: 6 }),
      step: fc.oneof(fc.constant("first" as const), fc.constant("last" as const), fc.nat()),
      plants,
      later: fc.oneof(fc.constant("copies" as const), fc.array(state, { maxLength: 3 })),
      turn,
    }),
    weight: 6,
  },
);

/** A pair of histories (a up to 6 steps, b up to 9) with the divergence firstDivergence must find in it. */
export function diffCase(): fc.Arbitrary<DiffCase> {
  return shape.map(makeCase);
}

/** Batches of cases: each batch is one scenario of firstDivergence calls. */
export function diffCases(): fc.Arbitrary<DiffCase[]> {
  return fc.array(diffCase(), { minLength: 1, maxLength: 12 });
}

/** The pair a shape describes, with its divergence as the shape makes it. */
function makeCase(s: Shape): DiffCase {
  const same = (states: Json[]) => states.map((x) => equalCopy(x, s.turn));
  switch (s.kind) {
    case "equal":
      return { a: s.a, b: same(s.a), expected: null };
    case "shorter": {
      // b keeps fewer of a's states (0 to all but one): the first step it lacks is a's alone.
      const keep = s.keep % s.a.length;
      return { a: s.a, b: same(s.a.slice(0, keep)), expected: { step: keep + 1, paths: [[]] } };
    }
    case "longer":
      return { a: s.a, b: [...same(s.a), ...s.extra], expected: { step: s.a.length + 1, paths: [[]] } };
    case "planted": {
      const step = s.step === "first" ? 1 : s.step === "last" ? s.a.length : 1 + (s.step % s.a.length);
      const planted = plantAll(s.a[step - 1], s.plants);
      const a = [...s.a.slice(0, step - 1), planted.a, ...s.a.slice(step)];
      // After the planted step, b holds a's states again, or other states (as many or not): neither can move its first divergence.
      const later = s.later === "copies" ? same(a.slice(step)) : s.later;
      const b = [...same(a.slice(0, step - 1)), equalCopy(planted.b, s.turn), ...later];
      return { a, b, expected: { step, paths: planted.paths } };
    }
  }
}

/** The states at the planted step, a's and b's, made from `x` by `plants`, and every path where they differ. */
function plantAll(x: Json, plants: Plant[]): { a: Json; b: Json; paths: Path[] } {
  // A place at, above or under one kept before it is dropped: each change is then alone in its part of the state.
  const kept: { at: Path; change: Change }[] = [];
  for (const p of plants) {
    const at = placeIn(x, p.place);
    if (kept.every((k) => !startsWith(k.at, at) && !startsWith(at, k.at))) kept.push({ at, change: p.change });
  }
  let [a, b] = [structuredClone(x), structuredClone(x)];
  const paths: Path[] = [];
  for (const { at, change } of kept) {
    const made = changeAt(valueAt(x, at), change);
    a = setAt(a, at, made.a);
    b = setAt(b, at, made.b);
    paths.push(...made.paths.map((p) => [...at, ...p]));
  }
  return { a, b, paths };
}

/** What a holds and b holds at a place whose value in the drawn state is `v`, and the paths (from that place) where they differ. */
function changeAt(v: Json, c: Change): { a: Json; b: Json; paths: Path[] } {
  switch (c.change) {
    case "leaf":
      return { a: v, b: otherLeaf(v, c.pick), paths: [[]] };
    case "look-alike": {
      const [x, y] = c.swap ? [LOOK_ALIKES[c.pair]![1], LOOK_ALIKES[c.pair]![0]] : LOOK_ALIKES[c.pair]!;
      const [inA, inB] = [nested(x, c.nest), nested(y, c.nest)];
      return { a: inA.value, b: inB.value, paths: [inA.path] };
    }
    case "key": {
      const object = isObject(v) ? v : {};
      const key = freshKey(object, c.key);
      const withKey = { ...object, [key]: c.value };
      return { ...sides(object, withKey, c.side), paths: [[key]] };
    }
    case "items": {
      const array = Array.isArray(v) ? v : [];
      return { ...sides(array, [...array, ...c.items], c.side), paths: c.items.map((_, i) => [array.length + i]) };
    }
    case "turn": {
      const by = 1 + (c.by % (c.items.length - 1));
      return { a: c.items, b: [...c.items.slice(by), ...c.items.slice(0, by)], paths: c.items.map((_, i) => [i]) };
    }
  }
}

/** `shorter` for the side without the extra, `longer` for `side`. */
function sides(shorter: Json, longer: Json, side: Side): { a: Json; b: Json } {
  return side === "b" ? { a: shorter, b: longer } : { a: longer, b: shorter };
}

/** `value` inside `levels` levels of objects and arrays, and the path to it. */
function nested(value: Json, levels: number): { value: Json; path: Path } {
  let path: Path = [];
  for (let level = 0; level < levels; level++) {
    if (level % 2) [value, path] = [[value], [0, ...path]];
    else [value, path] = [{ inner: value }, ["inner", ...path]];
  }
  return { value, path };
}

/**
 * A value that differs from `v` as a whole: another string, number or boolean, or a value of
 * another kind (`v`'s items as another kind of container, null, 0, "0", ...). Never a container of
 * `v`'s own kind, whose differences would lie inside it.
 */
function otherLeaf(v: Json, pick: number): Json {
  const kind = kindOf(v);
  const sameKind = typeof v === "string" ? [`${v}x`] : typeof v === "number" ? [v === 1 ? 2 : 1] : typeof v === "boolean" ? [!v] : [];
  const otherKind = [reshaped(v), null, 0, "0", false, "", {}, [], [v], { "0": v }].filter((c) => kindOf(c) !== kind);
  const choices = [...sameKind, ...otherKind];
  return choices[pick % choices.length];
}

/** `v` recast: an array's items as an object keyed by index, an object's values as an array, 0 as "0", "1" as 1, ... */
function reshaped(v: Json): Json {
  if (Array.isArray(v)) return Object.fromEntries(v.map((item, i) => [String(i), item]));
  if (v === null) return 0;
  if (typeof v === "object") return Object.values(v);
  // A number JSON can hold: never -0 (0 instead) nor too large a one (null instead).
  if (typeof v === "string") return /^-?\d+(\.\d+)?$/.test(v) && Number.isFinite(Number(v)) ? Number(v) + 0 : null;
  return String(v);
}

/** `k`, or `k` lengthened until `object` has no such key. */
function freshKey(object: object, k: string): string {
  let key = k;
  while (Object.hasOwn(object, key)) key += "+";
  return key;
}

/** The path a drawn place leads to in `x`. */
function placeIn(x: Json, draw: PlaceDraw): Path {
  if (draw.at === "whole") return [];
  if (draw.at === "any") {
    const all = placesIn(x, []);
    return all[draw.pick % all.length]!;
  }
  const path: Path = [];
  for (let v = x; isContainer(v) && Object.keys(v).length > 0; ) {
    const k = childKeys(v)[0]!;
    path.push(k);
    v = (v as Record<string | number, Json>)[k];
  }
  return path;
}

/** Every path in `x` below `at`, `at` itself first. */
function placesIn(x: Json, at: Path): Path[] {
  if (!isContainer(x)) return [at];
  return [at, ...childKeys(x).flatMap((k) => placesIn((x as Record<string | number, Json>)[k], [...at, k]))];
}

/** A container's keys as paths hold them: indices as numbers, object keys as strings. */
function childKeys(v: object): (string | number)[] {
  return Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
}

function valueAt(x: Json, path: Path): Json {
  return path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k], x);
}

/** `root` with a copy of `value` at `path` (a path `root` has); `root` is changed in place unless the path is []. */
function setAt(root: Json, path: Path, value: Json): Json {
  if (path.length === 0) return structuredClone(value);
  const parent = valueAt(root, path.slice(0, -1)) as Record<string | number, Json>;
  parent[path.at(-1)!] = structuredClone(value);
  return root;
}

/** Whether `path` is `prefix` or lies under it. */
function startsWith(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((k, i) => path[i] === k);
}

/** The same value with every object's keys in another order (turned by `turn`, then reversed); a copy as it is for turn 0. */
function equalCopy(value: Json, turn: number): Json {
  return turn === 0 ? structuredClone(value) : reorder(value, turn);
}

function reorder(value: Json, turn: number): Json {
  if (Array.isArray(value)) return value.map((v) => reorder(v, turn));
  if (!isObject(value)) return value;
  const entries = Object.entries(value);
  const t = entries.length ? turn % entries.length : 0;
  const turned = [...entries.slice(t), ...entries.slice(0, t)].reverse();
  return Object.fromEntries(turned.map(([k, v]) => [k, reorder(v, turn)]));
}

/** The kind of a JSON value: "null", "array", "object", "string", "number" or "boolean". */
function kindOf(value: Json): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

function isContainer(value: Json): value is object {
  return value !== null && typeof value === "object";
}

function isObject(value: Json): value is Record<string, Json> {
  return isContainer(value) && !Array.isArray(value);
}

/** Hand-written pairs with their answers, one of each kind of divergence the check asks about, in one batch. */
export const HAND_CASES: DiffCase[] = [
  // the first step, the last step, the middle (later steps differing too)
  { a: [{ x: 1 }, { x: 2 }], b: [{ x: 0 }, { x: 2 }], expected: { step: 1, paths: [["x"]] } },
  { a: [{ s: 1 }, { s: 2 }, { s: 3 }], b: [{ s: 1 }, { s: 2 }, { s: 4 }], expected: { step: 3, paths: [["s"]] } },
  { a: [1, 2, 3, 4], b: [1, 2, 9, 8], expected: { step: 3, paths: [[]] } },
  { a: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }], b: [{ n: 1 }, { n: 5 }, { n: 6 }, { n: 7 }], expected: { step: 2, paths: [["n"]] } },
  // equal histories, empty ones, and key order only: no divergence
  { a: [{ a: 1, b: [1, 2] }, "x"], b: [{ a: 1, b: [1, 2] }, "x"], expected: null },
  { a: [], b: [], expected: null },
  { a: [{ a: 1, b: { c: 2, d: 3 } }], b: [{ b: { d: 3, c: 2 }, a: 1 }], expected: null },
  { a: [{ a: 1, b: 2 }, { a: 1 }], b: [{ b: 2, a: 1 }, { a: 2 }], expected: { step: 2, paths: [["a"]] } },
  // histories of different lengths
  { a: [{ n: 1 }], b: [{ n: 1 }, { n: 2 }], expected: { step: 2, paths: [[]] } },
  { a: [{ n: 1 }, { n: 2 }, { n: 3 }], b: [{ n: 1 }], expected: { step: 2, paths: [[]] } },
  { a: [], b: [{}], expected: { step: 1, paths: [[]] } },
  // deep in a nested value
  { a: [{ p: { q: { r: [0, { s: 1 }] } } }], b: [{ p: { q: { r: [0, { s: 2 }] } } }], expected: { step: 1, paths: [["p", "q", "r", 1, "s"]] } },
  // arrays of different lengths, an array turned, and keys only one side has
  { a: [{ list: [1, 2] }], b: [{ list: [1, 2, 3, 4] }], expected: { step: 1, paths: [["list", 2], ["list", 3]] } },
  { a: [{ list: [1, 2, 3] }], b: [{ list: [3, 1, 2] }], expected: { step: 1, paths: [["list", 0], ["list", 1], ["list", 2]] } },
  { a: [[["a"], "b"]], b: [[[], "b", null]], expected: { step: 1, paths: [[0, 0], [2]] } },
  { a: [{ a: 1 }], b: [{ a: 1, b: 2 }], expected: { step: 1, paths: [["b"]] } },
  // a changed kind: object and array, 0, null and "0", an object keyed "0" and an array
  { a: [{ v: {} }], b: [{ v: [] }], expected: { step: 1, paths: [["v"]] } },
  { a: [{ v: 0, w: null, u: "0", t: true }], b: [{ v: null, w: "0", u: 0, t: "true" }], expected: { step: 1, paths: [["v"], ["w"], ["u"], ["t"]] } },
  { a: [[1]], b: [{ "0": 1 }], expected: { step: 1, paths: [[]] } },
  { a: [{ k: 1 }, null], b: [{ k: 1 }, {}], expected: { step: 2, paths: [[]] } },
  { a: [{ v: null, w: {}, x: [] }], b: [{ v: {}, w: null, x: null }], expected: { step: 1, paths: [["v"], ["w"], ["x"]] } },
  { a: [{ "0": 1, "1": [2] }], b: [{ "0": 2, "1": [3] }], expected: { step: 1, paths: [["0"], ["1", 0]] } },
  // several paths at once
  { a: [{ x: 1, y: [1, 2], z: { w: true } }, 5], b: [{ x: 2, y: [1, 3], z: { w: false }, extra: null }, 6], expected: { step: 1, paths: [["x"], ["y", 1], ["z", "w"], ["extra"]] } },
];
