// The states a checkpoint must hold: JSON values with no -0, nesting depth at most 100, well-formed
// strings and no "__proto__" keys, from tiny to over 64 KiB.
import fc from "fast-check";
import { formatBytes } from "../report/sizes.js";
import { visibleJson } from "../visible-json.js";

export type JsonState = unknown;

/** Small values that break hand-made serialisers: empty ones, and strings that look like JSON. */
export const TRICKY: JsonState[] = [null, {}, [], "", 0, true, false, "null", "42", "true", "[1]", "{}", '"quoted"', " ", "é😀\u2028\"\\", { "": [] }, [null]];

/** Every kind of state the lab promises to handle, small ones most often. */
export function jsonState(): fc.Arbitrary<JsonState> {
  return fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 4, stringUnit: "grapheme" }).map(clean), weight: 6 },
    { arbitrary: fc.constantFrom(...TRICKY) as fc.Arbitrary<JsonState>, weight: 1 },
    { arbitrary: deepState(), weight: 1 },
    { arbitrary: largeState(), weight: 1 },
  );
}

/** Small states only (no large or deeply nested ones): for checks that run many processes over each. */
export function smallJsonState(): fc.Arbitrary<JsonState> {
  return fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: "grapheme" }).map(clean), weight: 6 },
    { arbitrary: fc.constantFrom(...TRICKY) as fc.Arbitrary<JsonState>, weight: 1 },
  );
}

/** Values nested 20 to 100 levels deep. */
export function deepState(): fc.Arbitrary<JsonState> {
  return fc.record({ depth: fc.integer({ min: 20, max: 100 }), leaf: fc.jsonValue({ maxDepth: 0 }) }).map(({ depth, leaf }) => {
    let value: unknown = clean(leaf);
    for (let i = 1; i < depth; i++) value = i % 2 ? [value] : { level: i, inner: value };
    return value;
  });
}

/** The bytes of the largest state a check writes: the lab allows states of "a few MiB". */
export const LARGE_STATE_BYTES = 3 * 1024 * 1024;

/** At most this many crash states (or power-cut points) for a write of that state: written in small pieces, it would have thousands, each only holding more of the same bytes. */
export const LARGE_STATE_CUTS = 16;

/** States of 64 KiB to a few hundred KiB, built from a seed so they shrink well. */
export function largeState(minBytes = 64 * 1024): fc.Arbitrary<JsonState> {
  return fc
    .record({ word: fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }), extra: fc.nat({ max: 3 * minBytes }), n: fc.integer() })
    .map(({ word, extra, n }) => {
      const items: unknown[] = [];
      let size = 0;
      for (let i = 0; size < minBytes + extra; i++) {
        const item = { step: i, note: `${word} ${i}`, value: (n + i) % 1000, done: i % 3 === 0, tags: [word, null] };
        size += JSON.stringify(item).length;
        items.push(item);
      }
      return { kind: "large", items };
    });
}

/** A state of about `bytes` bytes, the same for the same seed (for the real-process checks). */
export function stateOfSize(bytes: number, seed: number): JsonState {
  return fc.sample(largeState(bytes).map((s) => s), { seed, numRuns: 1 })[0];
}

/** Removes what the lab excludes: -0 and "__proto__" keys. */
function clean(value: unknown): JsonState {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== "__proto__") out[k] = clean(v);
    return out;
  }
  return value;
}

/** A short description of a state for messages: its JSON (characters one cannot see escaped), or its size when it is large. */
export function showState(state: JsonState, max = 120): string {
  const json = JSON.stringify(state);
  // Escaping only lengthens a text, so a JSON text over `max` is cut whatever it holds: only the
  // part shown is escaped (a state of a few MiB is shown in the words of each of its cases).
  if (json.length <= max) {
    const text = visibleJson(json);
    if (text.length <= max) return text;
  }
  const kind = Array.isArray(state) ? "array" : typeof state === "object" && state ? "object" : typeof state;
  return `${visibleJson(json.slice(0, max - 40))}… (${kind === "object" || kind === "array" ? `an ${kind}` : `a ${kind}`} of ${formatBytes(Buffer.byteLength(json))})`;
}


/** A fraction in [0, 1) spread evenly (fast-check's doubles favour values near 0). */
export function fraction(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 9999 }).map((n) => n / 10000);
}
