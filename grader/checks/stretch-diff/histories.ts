// Pairs of histories with divergences planted in them: b is a copy of a, edited step by step
// (a value changed deep inside, a key added or dropped, an array grown, shrunk or turned, a value
// of another kind, keys reordered, which is no divergence, or two look-alikes planted in a and b
// at the same place), then cut shorter or made longer.
import fc from "fast-check";
import { deepState, smallJsonState } from "../../grading/states.js";
import type { DiffCase } from "./answers.js";

type Json = unknown;

/** One edit of one state: where (a route of child choices, or the deepest leaf) and what. */
type Edit =
  | { kind: "same" }
  | { kind: "reorder"; turn: number }
  | { kind: "change"; changes: { route: number[]; deepest: boolean; op: Op }[] }
  | { kind: "look-alike"; at: Place | null; nest: number; pair: number; swap: boolean };

/** Where in a state: a route of child choices (then the first child down to a leaf, when `deepest`); null is the whole state. */
type Place = { route: number[]; deepest: boolean };

type Op =
  | { op: "replace"; value: Json }
  | { op: "add"; key: string; value: Json }
  | { op: "drop"; pick: number }
  | { op: "other-kind" }
  | { op: "rotate"; by: number };

/**
 * Pairs of different values that a sloppy comparison takes for equal: typeof says "object" for
 * null, {} and [] alike; == says 0 equals "0" and false; a falsy test lumps "" with null.
 */
export const LOOK_ALIKES: readonly (readonly [Json, Json])[] = [[null, {}], [null, []], [0, "0"], [0, false], ["", null], [[], {}]];

/** A state: small JSON values mostly, sometimes one nested 20 to 100 levels deep. */
const state = fc.oneof({ arbitrary: smallJsonState(), weight: 9 }, { arbitrary: deepState(), weight: 1 });

/** An object key: never "__proto__", which the lab's states never hold. */
const key = fc.oneof(fc.constantFrom("0", "1", "step", "notes", ""), fc.string({ unit: "grapheme", maxLength: 4 })).filter((k) => k !== "__proto__");

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("replace" as const), value: smallJsonState() }),
  fc.record({ op: fc.constant("add" as const), key, value: smallJsonState() }),
  fc.record({ op: fc.constant("drop" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("other-kind" as const) }),
  fc.record({ op: fc.constant("rotate" as const), by: fc.integer({ min: 1, max: 3 }) }),
);

const place: fc.Arbitrary<Place | null> = fc.oneof(fc.constant(null), fc.record({ route: fc.array(fc.nat(), { maxLength: 6 }), deepest: fc.boolean() }));

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { arbitrary: fc.constant({ kind: "same" as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("reorder" as const), turn: fc.nat({ max: 5 }) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant("change" as const),
      changes: fc.array(fc.record({ route: fc.array(fc.nat(), { maxLength: 6 }), deepest: fc.boolean(), op }), { minLength: 1, maxLength: 3 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("look-alike" as const), at: place, nest: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })), pair: fc.nat({ max: LOOK_ALIKES.length - 1 }), swap: fc.boolean() }),
    weight: 2,
  },
);

/** The first steps of b are a's own states (or a's with keys reordered), so divergences land late too. */
const quietEdit: fc.Arbitrary<Edit> = fc.oneof(fc.constant({ kind: "same" as const }), fc.record({ kind: fc.constant("reorder" as const), turn: fc.nat({ max: 5 }) }));

/** A pair of histories of up to 6 steps, b edited from a, with b cut shorter, made longer or left as long. */
export function diffCase(): fc.Arbitrary<DiffCase> {
  return fc
    .array(state, { minLength: 1, maxLength: 6 })
    .chain((a) => fc.record({ a: fc.constant(a), quiet: fc.nat({ max: a.length - 1 }) }))
    .chain(({ a, quiet }) =>
      fc.record({
        a: fc.constant(a),
        edits: fc.tuple(fc.array(quietEdit, { minLength: quiet, maxLength: quiet }), fc.array(edit, { minLength: 1, maxLength: 6 })).map(([q, l]) => [...q, ...l]),
        length: fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.integer({ min: -3, max: 3 }), weight: 1 }),
        extra: fc.array(state, { maxLength: 3 }),
      }),
    )
    .map(({ a: drawn, edits, length, extra }) => {
      // A look-alike edit puts one value of its pair into a's state, the other into b's, at the same place.
      const a = drawn.map((s, i) => plantLookAlike(s, edits[i] ?? { kind: "same" }, "a"));
      const b = drawn.map((s, i) => applyEdit(s, edits[i] ?? { kind: "same" }));
      if (length < 0) b.splice(Math.max(0, b.length + length));
      if (length > 0) b.push(...extra.slice(0, length));
      return { a, b };
    });
}

/** Batches of cases: each batch is one scenario of firstDivergence calls. */
export function diffCases(): fc.Arbitrary<DiffCase[]> {
  return fc.array(diffCase(), { minLength: 1, maxLength: 12 });
}

/** A copy of `s` with `e` applied. */
function applyEdit(s: Json, e: Edit): Json {
  if (e.kind === "same") return structuredClone(s);
  if (e.kind === "reorder") return reorder(s, e.turn);
  if (e.kind === "look-alike") return plantLookAlike(s, e, "b");
  return e.changes.reduce((value, c) => change(value, c.route, c.deepest, c.op), structuredClone(s));
}

/**
 * `s` with history `side`'s value of a look-alike edit's pair at its place, inside `nest` levels
 * of objects and arrays that both sides share, so the pair lands deep even in a flat state; `s`
 * itself for any other edit.
 */
function plantLookAlike(s: Json, e: Edit, side: "a" | "b"): Json {
  if (e.kind !== "look-alike") return s;
  let value = LOOK_ALIKES[e.pair]![(side === "a") === e.swap ? 1 : 0];
  for (let level = 0; level < e.nest; level++) value = level % 2 ? [value] : { inner: value };
  const { route, deepest } = e.at ?? { route: [], deepest: false };
  return change(structuredClone(s), route, deepest, { op: "replace", value });
}

/** The same value with every object's keys in another order (turned by `turn`, then reversed). */
function reorder(value: Json, turn: number): Json {
  if (Array.isArray(value)) return value.map((v) => reorder(v, turn));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const t = entries.length ? turn % entries.length : 0;
  const turned = [...entries.slice(t), ...entries.slice(0, t)].reverse();
  return Object.fromEntries(turned.map(([k, v]) => [k, reorder(v, turn)]));
}

/** `root` changed by `op` at the value the route leads to (following it, then the first child, when `deepest`). */
function change(root: Json, route: number[], deepest: boolean, op: Op): Json {
  let parent: Record<string, Json> | null = null;
  let slot = "";
  let node = root;
  for (let i = 0; i < route.length || deepest; i++) {
    const keys = isContainer(node) ? Object.keys(node) : [];
    if (keys.length === 0) break;
    parent = node as Record<string, Json>;
    slot = keys[(route[i] ?? 0) % keys.length]!;
    node = parent[slot];
  }
  const next = operate(node, op);
  if (parent === null) return next;
  parent[slot] = next;
  return root;
}

/** The value `node` (a part of a copy) becomes under `op`, changed in place when it is a container. */
function operate(node: Json, op: Op): Json {
  switch (op.op) {
    case "replace":
      return structuredClone(op.value);
    case "add": {
      // A copy: fast-check's values (some of them shared constants) must never be changed.
      const value = structuredClone(op.value);
      if (Array.isArray(node)) node.push(value);
      else if (isContainer(node)) (node as Record<string, Json>)[op.key] = value;
      else return { [op.key]: value };
      return node;
    }
    case "drop": {
      if (Array.isArray(node)) node.splice(op.pick % Math.max(1, node.length), 1);
      else if (isContainer(node)) delete (node as Record<string, Json>)[Object.keys(node)[op.pick % Math.max(1, Object.keys(node).length)] ?? ""];
      else return null;
      return node;
    }
    case "other-kind":
      return otherKind(node);
    case "rotate":
      // The same items in another order: an array is not a set.
      if (Array.isArray(node)) return [...node.slice(op.by % Math.max(1, node.length)), ...node.slice(0, op.by % Math.max(1, node.length))];
      return isContainer(node) ? reorder(node, op.by) : otherKind(node);
  }
}

/** A value of another kind that looks alike: an array's items as an object keyed by index, 0 as "0", null as 0, ... */
function otherKind(node: Json): Json {
  if (Array.isArray(node)) return Object.fromEntries(node.map((v, i) => [String(i), v]));
  if (node === null) return 0;
  if (typeof node === "object") return Object.values(node);
  if (typeof node === "number") return String(node);
  if (typeof node === "string") return /^-?\d+(\.\d+)?$/.test(node) ? Number(node) : null;
  return String(node);
}

function isContainer(value: Json): value is object {
  return value !== null && typeof value === "object";
}

/** Hand-written pairs, one of each kind of divergence the check asks about, in one batch. */
export const HAND_CASES: DiffCase[] = [
  // the first step, the last step, the middle (later steps differing too)
  { a: [{ x: 1 }, { x: 2 }], b: [{ x: 0 }, { x: 2 }] },
  { a: [{ s: 1 }, { s: 2 }, { s: 3 }], b: [{ s: 1 }, { s: 2 }, { s: 4 }] },
  { a: [1, 2, 3, 4], b: [1, 2, 9, 8] },
  { a: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }], b: [{ n: 1 }, { n: 5 }, { n: 6 }, { n: 7 }] },
  // equal histories, empty ones, and key order only: no divergence
  { a: [{ a: 1, b: [1, 2] }, "x"], b: [{ a: 1, b: [1, 2] }, "x"] },
  { a: [], b: [] },
  { a: [{ a: 1, b: { c: 2, d: 3 } }], b: [{ b: { d: 3, c: 2 }, a: 1 }] },
  { a: [{ a: 1, b: 2 }, { a: 1 }], b: [{ b: 2, a: 1 }, { a: 2 }] },
  // histories of different lengths
  { a: [{ n: 1 }], b: [{ n: 1 }, { n: 2 }] },
  { a: [{ n: 1 }, { n: 2 }, { n: 3 }], b: [{ n: 1 }] },
  { a: [], b: [{}] },
  // deep in a nested value
  { a: [{ p: { q: { r: [0, { s: 1 }] } } }], b: [{ p: { q: { r: [0, { s: 2 }] } } }] },
  // arrays of different lengths, and keys only one side has
  { a: [{ list: [1, 2] }], b: [{ list: [1, 2, 3, 4] }] },
  { a: [{ list: [1, 2, 3] }], b: [{ list: [3, 1, 2] }] },
  { a: [[["a"], "b"]], b: [[[], "b", null]] },
  { a: [{ a: 1 }], b: [{ a: 1, b: 2 }] },
  // a changed kind: object and array, 0, null and "0", an object keyed "0" and an array
  { a: [{ v: {} }], b: [{ v: [] }] },
  { a: [{ v: 0, w: null, u: "0", t: true }], b: [{ v: null, w: "0", u: 0, t: "true" }] },
  { a: [[1]], b: [{ "0": 1 }] },
  { a: [{ v: null, w: {}, x: [] }], b: [{ v: {}, w: null, x: null }] },
  { a: [{ "0": 1, "1": [2] }], b: [{ "0": 2, "1": [3] }] },
  // several paths at once
  { a: [{ x: 1, y: [1, 2], z: { w: true } }, 5], b: [{ x: 2, y: [1, 3], z: { w: false }, extra: null }, 6] },
];
