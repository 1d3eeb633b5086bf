// Key-order independent views of JSON values: one text per value, and a short digest of it.
// The grader and the lab's side-effect record both compare states this way.
import { createHash } from "node:crypto";

/** Returns the JSON text of `value` with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "undefined";
}

/** Returns a 16-hex-digit digest of `canonicalJson(value)`. */
export function stateDigest(value: unknown): string {
  return textDigest(canonicalJson(value));
}

/** Returns the digest of a canonical JSON text (what `stateDigest` gives for its value). */
export function textDigest(canonicalText: string): string {
  return createHash("sha256").update(canonicalText).digest("hex").slice(0, 16);
}

/** Returns `value` with object keys sorted, so that equal JSON values print the same text. */
function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    // A hole reads as undefined and prints as null, as it would in the array itself.
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = sortKeys(value[i]);
    return copy;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  // A plain object, which JSON.stringify prints faster than one without a prototype; a
  // "__proto__" key is defined as an own property, so it stays data and not the prototype.
  // Each property is read once, in sorted order.
  const keys = sortedKeys(Object.keys(value));
  const sorted: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = sortKeys((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(sorted, key, { value: v, enumerable: true, writable: true, configurable: true });
    else sorted[key] = v;
  }
  return sorted;
}

// A large state repeats a few shapes ({step, note, value} a thousand times): the sorted order of
// the last shape seen is kept, and an object of that shape is not sorted again.
let lastShape: string[] = [];
let lastSorted: string[] = [];

/** `keys` sorted (as Array.prototype.sort orders strings); the last shape's order when `keys` are that shape. */
function sortedKeys(keys: string[]): string[] {
  if (keys.length === lastShape.length) {
    let same = true;
    for (let i = 0; i < keys.length && same; i++) same = keys[i] === lastShape[i];
    if (same) return lastSorted;
  }
  lastShape = keys;
  lastSorted = [...keys].sort();
  return lastSorted;
}
