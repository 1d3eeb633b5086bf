// A small comparison of JSON values for the session-diffing tests alone, written apart from the
// grader, which holds none (the student template leaves grader/test out): the tests hold the
// answers the grader's cases carry, known from how the cases were made, against it.

type Path = (string | number)[];

/** The first step (from 1) at which histories `a` and `b` differ, with every smallest path where they do; null when they are equal. */
export function firstDifference(a: readonly unknown[], b: readonly unknown[]): { step: number; paths: Path[] } | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i >= a.length || i >= b.length) return { step: i + 1, paths: [[]] };
    const paths = differences(a[i], b[i]);
    if (paths.length > 0) return { step: i + 1, paths };
  }
  return null;
}

/** Every smallest path at which JSON values `x` and `y` differ, found by recursion over the keys of both. */
export function differences(x: unknown, y: unknown, at: Path = []): Path[] {
  if (same(x, y)) return [];
  if (!bothOf("array", x, y) && !bothOf("object", x, y)) return [at];
  const [u, v] = [x as Record<string, unknown>, y as Record<string, unknown>];
  const step = (k: string) => (Array.isArray(x) ? Number(k) : k);
  const keys = [...new Set([...Object.keys(u), ...Object.keys(v)])];
  return keys.flatMap((k) => (Object.hasOwn(u, k) && Object.hasOwn(v, k) ? differences(u[k], v[k], [...at, step(k)]) : [[...at, step(k)]]));
}

/** Whether `x` and `y` are the same JSON value, key order aside. */
export function same(x: unknown, y: unknown): boolean {
  return JSON.stringify(sorted(x)) === JSON.stringify(sorted(y));
}

/** A set of paths as one comparable text. */
export function pathSet(paths: readonly Path[]): string {
  return paths.map((p) => JSON.stringify(p)).sort().join(" ");
}

function bothOf(kind: "array" | "object", x: unknown, y: unknown): boolean {
  const is = (v: unknown) => v !== null && typeof v === "object" && Array.isArray(v) === (kind === "array");
  return is(x) && is(y);
}

/** `v` as plain data whose JSON is the same for equal values: arrays and objects tagged apart, an object's keys sorted. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return ["array", ...v.map(sorted)];
  if (v === null || typeof v !== "object") return v;
  const keys = Object.keys(v).sort();
  return ["object", ...keys.map((k) => [k, sorted((v as Record<string, unknown>)[k])])];
}
