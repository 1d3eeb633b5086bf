// The "diff" picture of a stretch-diff failure (contract/picture-diff.ts), made from the same
// histories and the same answer its story is told from: the divergence the case carries (known
// from how its histories were made), what each side holds at each of its paths, and where the
// answer points.
// A picture the builder cannot make is left out (null): it never changes a verdict or a story.
import type { DiffAnswer, DiffPathEntry, DiffPicture, DiffRow } from "../../contract/picture-diff.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import { byPath, isPathList, type DiffCase, type Divergence, type Judged, type Path } from "./divergence.js";

/** Paths the picture carries at most (the rest are counted); the terminal shows fewer. */
const PATHS = 8;
/** Characters of a state, of a value at a path, and of what a call said, in short. */
const STATE_CHARS = 60;
const VALUE_CHARS = 24;
const SAID_CHARS = 60;

/** What a picture of an answer is made from: the call as the story names it, the two histories, their names and their divergence, what the call did, and what was judged of it. */
export interface AnswerRecord extends DiffCase {
  call: string;
  names: readonly [string, string];
  result: CallResult;
  judged: Judged;
}

/** The picture of firstDivergence's answer for two histories; null when it cannot be drawn (the call did not return or throw). */
export function answerPicture(record: AnswerRecord): DiffPicture | null {
  try {
    const { a, b, expected, result, judged } = record;
    if (result.status !== "returned" && result.status !== "threw") return null;
    const answer = answerOf(result, expected, judged);
    const picture = histories(record.call, record.names, a, b, expected, answer.step);
    return { ...picture, paths: marked(picture.paths, answer.listed), answer: answer.drawn };
  } catch {
    // The story is the verdict; a picture that cannot be made is left out, never the failure's cause.
    return null;
  }
}

/**
 * The picture of the history loadHistory gave back (`result`) beside the task's own states, at
 * `divergence`, where they first differ (the loaded history as a, the task's as b); null when it
 * returned no array, or their divergence is not known.
 */
export function loadedPicture(call: string, result: CallResult, expected: readonly unknown[], divergence: Divergence | null): DiffPicture | null {
  try {
    const got = result.status === "returned" ? result.value.value : undefined;
    if (!Array.isArray(got) || divergence === null) return null;
    return histories(call, ["loaded", "the task's"], got, expected, divergence, undefined);
  } catch {
    return null;
  }
}

/** The two histories drawn at their divergence (and at `answerStep`, when it is a step either has), without an answer. */
function histories(call: string, names: readonly [string, string], a: readonly unknown[], b: readonly unknown[], expected: Divergence | null, answerStep: number | undefined): DiffPicture {
  const steps = Math.max(a.length, b.length);
  const drawn = [expected?.step, answerStep].filter((s): s is number => s !== undefined && s >= 1 && s <= steps);
  const rows = [...new Set(drawn)].sort((x, y) => x - y).map((step) => row(step, a, b));
  const paths = [...(expected?.paths ?? [])].sort(byPath);
  return {
    kind: "diff",
    call,
    a: { name: names[0], steps: a.length },
    b: { name: names[1], steps: b.length },
    step: expected?.step ?? null,
    rows,
    paths: expected ? paths.slice(0, PATHS).map((p) => pathEntry(p, expected.step, a, b)) : [],
    morePaths: Math.max(0, paths.length - PATHS),
  };
}

/** Each side's state after `step`, in short; absent where that history has no such step. */
function row(step: number, a: readonly unknown[], b: readonly unknown[]): DiffRow {
  return { step, ...(step <= a.length ? { a: short(a[step - 1], STATE_CHARS) } : {}), ...(step <= b.length ? { b: short(b[step - 1], STATE_CHARS) } : {}) };
}

/** What each side holds at `path` in its state after `step`. */
function pathEntry(path: Path, step: number, a: readonly unknown[], b: readonly unknown[]): DiffPathEntry {
  const [x, y] = [valueAt(a, step, path), valueAt(b, step, path)];
  return { path, in: x.has && y.has ? "both" : x.has ? "a" : "b", ...(x.has ? { a: short(x.value, VALUE_CHARS) } : {}), ...(y.has ? { b: short(y.value, VALUE_CHARS) } : {}) };
}

/** The value at `path` in the state after `step` of `history`, if it has one there. */
function valueAt(history: readonly unknown[], step: number, path: Path): { has: boolean; value?: unknown } {
  if (step > history.length) return { has: false };
  let value = history[step - 1];
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return { has: false };
    value = (value as Record<string | number, unknown>)[key];
  }
  return { has: true, value };
}

/** The answer as drawn, the step it points to, and which expected paths it listed (when its paths were judged). */
function answerOf(r: CallResult, expected: Divergence | null, judged: Judged): { drawn: DiffAnswer; step?: number; listed?: Set<string> } {
  if (r.status === "threw") return { drawn: { said: short(`threw ${r.error.name}: ${r.error.message}`, SAID_CHARS, false) } };
  if (r.status !== "returned") throw new Error(`no answer to draw: the call ${r.status}`);
  const got = r.value.value as { step?: unknown; paths?: unknown } | null;
  if (got === null) return { drawn: { said: "returned null" } };
  const step = got?.step;
  if (!Number.isInteger(step)) return { drawn: { said: short(`returned ${r.value.preview}`, SAID_CHARS, false) } };
  const drawn: DiffAnswer = { said: `returned step ${step as number}`, step: step as number };
  // Its paths were judged only when its step was right, as the story judges them.
  if (judged !== "paths" || !expected || step !== expected.step || !isPathList(got.paths)) return { drawn, step: step as number };
  const want = new Set(expected.paths.map((p) => JSON.stringify(p)));
  const listed = new Set(got.paths.map((p) => JSON.stringify(p)));
  const extra = [...listed].filter((p) => !want.has(p)).map((p) => JSON.parse(p) as Path).sort(byPath);
  return { drawn: { ...drawn, extra }, step: step as number, listed };
}

/** The paths, each marked listed or not when the answer's paths were judged. */
function marked(paths: DiffPathEntry[], listed: Set<string> | undefined): DiffPathEntry[] {
  return listed ? paths.map((p) => ({ ...p, listed: listed.has(JSON.stringify(p.path)) })) : paths;
}

/** `value` as JSON (or `text` itself, when `json` is false) in at most `max` characters, "…" where it was cut. */
function short(value: unknown, max: number, json = true): string {
  const text = json ? (JSON.stringify(value) ?? String(value)) : String(value);
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
