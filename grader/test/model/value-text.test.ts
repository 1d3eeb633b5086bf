// How a returned value is judged and shown without printing all of it twice: the canonical JSON
// (lab/canonical.ts, keys sorted, the last shape's order kept) is exactly JSON.stringify of a copy
// with every object's keys sorted, and a story's preview (runtime/target/preview.ts) is exactly
// the start of JSON.stringify(value), for values JSON takes in every way it takes them.
import fc from "fast-check";
import { expect, test } from "vitest";
import { canonicalJson } from "../../../lab/canonical.js";
import { jsonPreview } from "../../sandbox/runtime/target/preview.js";

/** The canonical form by its definition: every object's keys sorted, in a fresh copy. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) Object.defineProperty(copy, key, { value: sortedCopy((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  return copy;
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** Values JSON.stringify takes apart in each of its ways, repeated shapes and key orders among them. */
const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary", maxLength: 400 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.constantFrom<unknown>(undefined, () => 1, Symbol("s"), Number.NaN, -0, Infinity, new Date(0), new Number(7), new String("s"), new Boolean(false), new Point(1, 2)),
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("__proto__", "10", "9", "b", "a", "")), tie("value"), { maxKeys: 6 }),
    // One shape many times, in two key orders: the shape cache must follow each object's own keys.
    fc.array(fc.record({ b: tie("value"), a: tie("value"), c: fc.integer() }), { minLength: 2, maxLength: 5 }).chain((items) =>
      fc.constant(items.map((item, i) => (i % 2 ? { a: item.a, c: item.c, b: item.b } : item))),
    ),
    tie("value").map((inner) => ({ toJSON: (key: string) => ({ key, inner }) })),
    fc.constant(Object.assign([1, , 3] as unknown[], {})),
  ),
})).value;

test("canonicalJson is JSON.stringify of a copy with every object's keys sorted", () => {
  fc.assert(
    fc.property(fc.array(jsonish, { minLength: 1, maxLength: 3 }), (values) => {
      // In a row, as a recovery's values come: the order kept from one value must not leak into the next.
      for (const value of values) expect(canonicalJson(value)).toBe(JSON.stringify(sortedCopy(value)) ?? "undefined");
    }),
    { numRuns: 500 },
  );
});

test("jsonPreview is the start of JSON.stringify(value), cut with an ellipsis past max, or undefined where it gives undefined", () => {
  fc.assert(
    fc.property(jsonish, fc.integer({ min: 1, max: 200 }), (value, max) => {
      const whole = JSON.stringify(value) as string | undefined;
      const expected = whole === undefined ? undefined : whole.length > max ? `${whole.slice(0, max - 1)}…` : whole;
      expect(jsonPreview(value, max)).toBe(expected);
    }),
    { numRuns: 1000 },
  );
});

test("jsonPreview of a state of megabytes reads only its start", () => {
  let read = 0;
  const items = Array.from({ length: 100_000 }, (_, i) => ({ step: i, note: `note ${i}` }));
  const counted = new Proxy(items, { get: (target, key, receiver) => (typeof key === "string" && /^\d+$/.test(key) && read++, Reflect.get(target, key, receiver)) });
  expect(jsonPreview({ kind: "large", items: counted }, 160)).toBe(`${JSON.stringify({ kind: "large", items }).slice(0, 159)}…`);
  expect(read).toBeLessThan(20);
});
