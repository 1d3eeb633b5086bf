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
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return sorted;
}
