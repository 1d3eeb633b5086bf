// The "diff" picture's data (contract/picture.ts): two histories of states side by side at the
// first step where they diverge (stretch-diff), the paths where their states differ there, and
// where the answer the story judged points. Made from the same histories and answer as the story.

/** A path into a state, outermost first: object keys and array indices; [] is the whole state. */
export type DiffPath = (string | number)[];

/**
 * Two histories compared step by step: the steps before the divergence are the same in both, the
 * divergent step is drawn with the paths where its two states differ, and the answer is marked
 * where it points.
 */
export interface DiffPicture {
  kind: "diff";
  /** The call whose answer the story judged, as the story names it: "firstDivergence(a, b)", "loadHistory(historyDir) for prompt A". */
  call: string;
  /** The first history, as the story names it ("a", "history A"), and how many steps it has. */
  a: DiffSide;
  /** The second history, likewise. */
  b: DiffSide;
  /** The first step (from 1) where the histories differ, as the story expects it; null when they are equal (key order aside). */
  step: number | null;
  /**
   * The steps drawn side by side, in order: the divergent step and the step the answer named;
   * each side's state there in short JSON, absent where that history has no such step. The
   * steps between them are not drawn: those before `step` are the same in both.
   */
  rows: DiffRow[];
  /** Where the states at `step` differ, smallest paths first in the story's order; at most a few. */
  paths: DiffPathEntry[];
  /** How many more paths differ than `paths` lists. */
  morePaths: number;
  /** What the judged call returned and where it points; absent when no call's answer is drawn. */
  answer?: DiffAnswer;
}

/** One history: its name as the story says it, and its length in steps. */
export interface DiffSide {
  name: string;
  steps: number;
}

/** One step drawn: each side's state after it in short JSON, absent where that history has no such step. */
export interface DiffRow {
  step: number;
  a?: string;
  b?: string;
}

/** One path where the states differ, and what each side holds there. */
export interface DiffPathEntry {
  path: DiffPath;
  /** Only a holds something there, only b does, or both do, and they differ. */
  in: "a" | "b" | "both";
  /** a's value there in short JSON (absent where a holds nothing), and b's. */
  a?: string;
  b?: string;
  /** Whether the answer listed this path; absent when the answer's paths were not judged. */
  listed?: boolean;
}

/** Where the answer points: the step it named (if it named one) and the paths it named that are no difference. */
export interface DiffAnswer {
  /** What the call did, in short: "returned step 4", "returned null", "threw TypeError: …". */
  said: string;
  /** The step it returned, when it returned one: it may be a step neither history has. */
  step?: number;
  /** Paths it returned that are not where the states differ (set when its paths were judged). */
  extra?: DiffPath[];
}

/** One line of the picture's steps, in order: a step drawn side by side, or a run of steps not drawn (`same`: before the divergence, so the same in both). */
export type DiffSpan = { row: DiffRow } | { from: number; to: number; same: boolean };

/** The picture's steps from 1 to the longer history's last: its rows, and the runs of steps between them. */
export function diffSpans(picture: DiffPicture): DiffSpan[] {
  const last = Math.max(picture.a.steps, picture.b.steps);
  const spans: DiffSpan[] = [];
  let next = 1;
  const gap = (to: number) => {
    if (to >= next) spans.push({ from: next, to, same: picture.step === null || to < picture.step });
  };
  for (const row of picture.rows) {
    gap(row.step - 1);
    spans.push({ row });
    next = row.step + 1;
  }
  gap(last);
  return spans;
}

/** Whether the answer points at a step drawn as a row (else it is said on a line of its own). */
export function answerOnRow(picture: DiffPicture): boolean {
  const step = picture.answer?.step;
  return step !== undefined && picture.rows.some((r) => r.step === step);
}

/** What the answer did, when it points at no step drawn: "returned step 0: neither history has a step 0"; "" when it points at a row (or there is none). */
export function answerOffRow(picture: DiffPicture): string {
  const answer = picture.answer;
  if (!answer || answerOnRow(picture)) return "";
  return `${answer.said}${answer.step === undefined ? "" : `: neither history has a step ${answer.step}`}`;
}

/** One path as a line of the drawing: `✗ left out ["x"]: 1 in a, 0 in b` (the mark only when the answer's paths were judged). */
export function pathLine(entry: DiffPathEntry, picture: DiffPicture): string {
  const mark = entry.listed === undefined ? "" : entry.listed ? "✓ listed " : "✗ left out ";
  return `${mark}${pathText(entry.path)}: ${heldWords(entry, picture)}`;
}

/** A path the answer returned where the states do not differ, as a line of the drawing. */
export function extraLine(path: DiffPath): string {
  return `✗ returned, no difference: ${pathText(path)}`;
}

/** "steps 1-4" or "step 3". */
export function stepsWord(from: number, to: number): string {
  return from === to ? `step ${from}` : `steps ${from}-${to}`;
}

/** A path as messages show it: `["notes",0,"text"]`, or `[] (the whole state)`. */
export function pathText(path: DiffPath): string {
  return path.length === 0 ? "[] (the whole state)" : JSON.stringify(path);
}

/** What each side holds at a path, in words: `1 in a, 0 in b`, `only in a (2)`, or `only a has step 3` for a step one history lacks. */
export function heldWords(entry: DiffPathEntry, picture: DiffPicture): string {
  const { a, b } = picture;
  if (entry.in === "both") return `${entry.a} in ${a.name}, ${entry.b} in ${b.name}`;
  const [side, value] = entry.in === "a" ? [a, entry.a] : [b, entry.b];
  const other = entry.in === "a" ? b : a;
  if (entry.path.length === 0 && picture.step !== null && other.steps < picture.step) return `only ${side.name} has step ${picture.step}`;
  return `only in ${side.name} (${value})`;
}

/** The words a row is marked with: the first divergence, where the answer points, both, or none. */
export function rowLabel(picture: DiffPicture, step: number): string {
  const answer = step === picture.answer?.step;
  if (step === picture.step) return answer ? "first divergence (returned)" : "first divergence";
  return answer ? picture.answer!.said : "";
}
