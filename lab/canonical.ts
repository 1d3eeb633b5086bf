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
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  // A plain object, which JSON.stringify prints faster than one without a prototype; a
  // "__proto__" key is defined as an own property, so it stays data and not the prototype.
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = sortKeys((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(sorted, key, { value: v, enumerable: true, writable: true, configurable: true });
    else sorted[key] = v;
  }
  return sorted;
}
