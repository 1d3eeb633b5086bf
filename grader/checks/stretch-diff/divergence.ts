// What session diffing's checks speak of: a divergence, the case it is the answer to, and how
// either reads in a message. No answer is worked out here: each case carries its own, known from
// how it was made (histories.ts, lab-runs.ts).

/** What is judged of an answer: only its step (and null), or its step and its set of paths. */
export type Judged = "step" | "paths";

/** A path into a state: object keys and array indices, outermost first. */
export type Path = (string | number)[];

export interface Divergence {
  step: number;
  paths: Path[];
}

/** Two histories to compare (`a[i]` and `b[i]` are the states after step i + 1), and the answer firstDivergence(a, b) must give. */
export interface DiffCase {
  a: readonly unknown[];
  b: readonly unknown[];
  expected: Divergence | null;
}

/** True for an array of paths, each an array of strings and numbers. */
export function isPathList(paths: unknown): paths is Path[] {
  return Array.isArray(paths) && paths.every((p) => Array.isArray(p) && p.every((k) => typeof k === "string" || typeof k === "number"));
}

/** A set of paths as one comparable text: each path's JSON, sorted, duplicates dropped. */
export function pathSetKey(paths: readonly Path[]): string {
  return [...new Set(paths.map((p) => JSON.stringify(p)))].sort().join("\n");
}

/** Paths for a message, in order: `["chain"], ["notes",3,"text"]`, `[] (the empty path: the whole state)`, at most `max` of them. */
export function showPaths(paths: readonly unknown[], max = 8): string {
  if (paths.length === 0) return "none";
  const show = (p: unknown) => (Array.isArray(p) && p.length === 0 ? "[] (the empty path: the whole state)" : JSON.stringify(p));
  const shown = [...paths].sort(byPath).slice(0, max).map(show);
  return paths.length > max ? `${shown.join(", ")} and ${paths.length - max} more` : shown.join(", ");
}

/** Orders paths key by key (indices by number), a shorter path before those it leads to: the order messages list them in. */
export function byPath(p: unknown, q: unknown): number {
  const [x, y] = [Array.isArray(p) ? p : [p], Array.isArray(q) ? q : [q]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [u, v] = [x[i], y[i]];
    if (u === v) continue;
    if (typeof u === "number" && typeof v === "number") return u - v;
    return String(u) < String(v) ? -1 : 1;
  }
  return x.length - y.length;
}

/** The right answer in short ("step 2 with paths [["x"]]") and why, in words ("they agree through step 1; at step 2 ..."). */
export function explainDivergence(expected: Divergence | null, a: readonly unknown[], b: readonly unknown[]): { answer: string; why: string } {
  if (expected === null) return { answer: "null", why: `the histories are equal (${a.length} ${a.length === 1 ? "step" : "steps"} each, key order aside)` };
  const { step, paths } = expected;
  const answer = `step ${step} with the paths ${showPaths(paths)}`;
  const before = step === 1 ? "" : `they agree through step ${step - 1}; `;
  if (step > a.length || step > b.length) return { answer, why: `${before}only ${a.length > b.length ? "a" : "b"} has step ${step}` };
  return { answer, why: `${before}at step ${step} the states differ at ${showPaths(paths)}` };
}
