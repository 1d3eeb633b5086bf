// The "runs" picture (picture-runs.ts) in the terminal: a row per run, its steps as cells under a
// step axis 1..N, "✂" where it was killed (between two cells, or inside one), "×2" on a step run
// again, "✗" on what the story says is wrong, and "↑" under a step the story names. Every mark is
// a sign as well as a colour, and the legend names each mark drawn; at most 12 lines (13 when the
// legend needs two), never wider than the terminal.
import type pc from "picocolors";
import stringWidth from "string-width";
import { cut } from "./cut-to-width.js";
import { isWrongCell, runLabel, type PictureCell, type PictureRun, type RunsPicture } from "../contract/picture-runs.js";

type Colors = ReturnType<typeof pc.createColors>;

/** The most lines the picture takes. */
const MAX_LINES = 12;
/** Columns a session's printed line may take at least before it is shortened to its status and next step. */
const ROOM = 12;

const TITLE: Record<RunsPicture["unit"], string> = {
  run: "Each run of runTask, step by step:",
  process: "Each process running runTask, step by step:",
  session: "Each session (a process), step by step:",
};

/** A run's label column: "run 1 max 4". */
function label(picture: RunsPicture, i: number): string {
  const run = picture.runs[i]!;
  return `${runLabel(picture, i)}${run.budget === undefined ? "" : ` max ${run.budget}`}`;
}

/** Whether the story says row `i` is wrong: its steps, or what it printed. */
function rowWrong(picture: RunsPicture, i: number): boolean {
  return picture.wrong?.run === i + 1 || !!picture.runs[i]!.printed?.wrong;
}

/** The picture's lines for a terminal `width` columns wide, indented by `indent`. */
export function runsLines(picture: RunsPicture, opts: { width: number; indent: number; c: Colors }): string[] {
  const { width, indent, c } = opts;
  const pad = " ".repeat(indent);
  const fit = (text: string) => pad + cut(text, width - indent);
  const flag = picture.runs.some((_, i) => rowWrong(picture, i)) ? 2 : 0;
  const labelWidth = flag + Math.max(...picture.runs.map((_, i) => stringWidth(label(picture, i))));
  const steps = picture.steps;
  // Three columns a cell when they fit with room to spare, else two.
  const body = indent + labelWidth + 1 + steps * 4 + 1 + ROOM <= width ? 3 : 2;
  const column = (step: number) => labelWidth + 1 + (step - 1) * (body + 1) + 1;

  const out = [c.dim(fit(TITLE[picture.unit]))];
  const axis = " ".repeat(labelWidth + 1) + Array.from({ length: steps }, (_, k) => ` ${String(k + 1).padStart(body)}`).join("");
  out.push(c.dim(fit(axis)));
  const rows = picture.runs.map((_, i) => row(picture, i, { labelWidth, flag, body, room: width - indent - column(steps + 1), c }));
  const under = wrongLines(picture, { column, body, width: width - indent });
  // The legend's lines: as many as every row's marks need (the rows shown need no more).
  const legendRoom = legendLines(new Set(rows.flatMap((r) => [...r.marks])), width - indent).length;
  const room = MAX_LINES - out.length - under.length - legendRoom;
  const shown = rows.length <= room ? rows : [...rows.slice(0, room - 2), { plain: `… ${rows.length - room + 1} more ${picture.unit}es`.replace(/(run|session)es$/, "$1s"), coloured: "", marks: new Set<Mark>() }, rows.at(-1)!];
  for (const r of shown) out.push(r.coloured && stringWidth(r.plain) <= width - indent ? pad + r.coloured : c.dim(fit(r.plain)));
  for (const line of under) out.push(c.red(fit(line)));
  // The legend explains the marks the lines above drew, each one, and no other.
  const drawn = new Set<Mark>(shown.flatMap((r) => [...r.marks]));
  if (under.length > 0) drawn.add("wrong");
  for (const line of legendLines(drawn, width - indent)) out.push(c.dim(fit(line)));
  return out;
}

/** One run's row: its label, a gap and a body for each step, and a session's printed line. */
function row(picture: RunsPicture, i: number, opts: { labelWidth: number; flag: number; body: number; room: number; c: Colors }): { plain: string; coloured: string; marks: Set<Mark> } {
  const { labelWidth, flag, body, c } = opts;
  const run = picture.runs[i]!;
  const wrong = rowWrong(picture, i);
  const head = `${flag ? (wrong ? "✗ " : "  ") : ""}${label(picture, i)}`.padEnd(labelWidth);
  const marks = new Set<Mark>(flag && wrong ? ["wrong"] : []);
  const parts: [string, (s: string) => string][] = [[`${head} `, wrong ? (s) => c.red(c.bold(s)) : (s) => s]];
  const kill = (s: string) => c.red(c.bold(s));
  const k = run.killed;
  for (let step = 1; step <= picture.steps + 1; step++) {
    const gapKilled = k && ((k.at === "before" && k.step === step) || (k.at === "after" && k.step === step - 1));
    parts.push(gapKilled ? ["✂", kill] : [" ", (s) => s]);
    if (gapKilled) marks.add("killed");
    if (step <= picture.steps) {
      const [text, colour, mark] = cellBody(picture, run, step, body, c);
      parts.push([text, colour]);
      if (mark) marks.add(mark);
    }
  }
  if (run.printed) {
    const line = printedWords(run.printed.line, opts.room - 3);
    parts.push([` ${run.printed.wrong ? "✗" : "→"} ${line}`, run.printed.wrong ? kill : (s) => c.dim(s)]);
    marks.add(run.printed.wrong ? "wrong" : "printed");
  }
  return { plain: parts.map(([s]) => s).join("").trimEnd(), coloured: parts.map(([s, f]) => f(s)).join("").trimEnd(), marks };
}

/** The body of one step's cell in a run: ran ("███"), ran again ("×2"), wrong ("✗2"), killed inside ("✂"), or blank. */
function cellBody(picture: RunsPicture, run: PictureRun, step: number, body: number, c: Colors): [string, (s: string) => string, Mark | undefined] {
  const cell = run.cells.filter((x) => x.step === step).at(-1);
  const k = run.killed;
  const killedIn = k && k.step === step && (k.at === "in-step" || k.at === "in-window");
  const mark = cell ? cellMark(picture, cell, body) : "";
  const colour = !cell ? (s: string) => s : isWrongCell(picture, cell) ? (s: string) => c.red(c.bold(s)) : cell.time > 1 ? c.yellow : c.green;
  if (killedIn) {
    const text = (k.at === "in-window" && cell ? mark.slice(0, body - 1) : "").padEnd(body - 1) + "✂";
    return [text.slice(-body).padStart(body), (s) => c.red(c.bold(s)), "killed"];
  }
  return [mark.padStart(body), colour, cell ? cellKind(picture, cell) : undefined];
}

/** Which legend entry a cell's sign (cellMark) needs. */
function cellKind(picture: RunsPicture, cell: PictureCell): Mark {
  if (isWrongCell(picture, cell)) return cell.wrongState ? "wrong-state" : "wrong-again";
  return cell.time > 1 ? "again" : "ran";
}

/** A cell's sign: "███" the first time, "×2" when it ran again, "✗2" or "✗!" when the story counts it against the target. */
function cellMark(picture: RunsPicture, cell: PictureCell, body: number): string {
  if (isWrongCell(picture, cell)) return cell.wrongState ? "✗!" : `✗${cell.time}`;
  return cell.time > 1 ? `×${cell.time}` : "█".repeat(body);
}

/** A session's printed line, whole when it fits in `room` columns, else its status and next step, else cut. */
function printedWords(line: string, room: number): string {
  if (stringWidth(line) <= room) return line;
  try {
    const { status, nextStep } = JSON.parse(line) as { status?: unknown; nextStep?: unknown };
    for (const short of [`${String(status)}, next ${String(nextStep)}`, `${String(status)} ${String(nextStep)}`]) if (stringWidth(short) <= room) return short;
  } catch {}
  return room > 1 ? cut(line, room) : "";
}

/** The story's complaint under the rows: "↑" under the step it names with its words beside, or on a line of their own. */
function wrongLines(picture: RunsPicture, opts: { column: (step: number) => number; body: number; width: number }): string[] {
  const wrong = picture.wrong;
  if (!wrong) return [];
  if (wrong.step === undefined || wrong.step < 1 || wrong.step > picture.steps) return [`✗ ${wrong.says}`];
  // Under the last column of the step's cell, where the axis has its number's last digit.
  const at = opts.column(wrong.step) + opts.body - 1;
  const arrow = `${" ".repeat(at)}↑`;
  // Beside the arrow when there is room for most of the words, else on their own line below it.
  if (opts.width - at - 2 >= Math.min(stringWidth(wrong.says), 30)) return [`${arrow} ${wrong.says}`];
  return [arrow, `✗ ${wrong.says}`];
}

/** A sign the picture can draw, named for its legend entry. */
type Mark = "ran" | "again" | "killed" | "wrong-again" | "wrong-state" | "wrong" | "printed";

/** Each sign's words in the legend, in the legend's order. */
const LEGEND: [Mark, string][] = [
  ["ran", "█ ran"],
  ["again", "×2 ran again"],
  ["killed", "✂ killed"],
  ["wrong-again", "✗2 ran again, wrongly"],
  ["wrong-state", "✗! ran on a wrong state"],
  ["wrong", "✗ wrong"],
  ["printed", "→ printed"],
];

/** What each sign drawn means: one line, or more when they do not fit in `width` columns (never cut). */
function legendLines(drawn: Set<Mark>, width: number): string[] {
  const lines: string[] = [];
  for (const [, words] of LEGEND.filter(([mark]) => drawn.has(mark))) {
    const last = lines.at(-1);
    if (last !== undefined && stringWidth(`${last}  ${words}`) <= width) lines[lines.length - 1] = `${last}  ${words}`;
    else lines.push(words);
  }
  return lines;
}
