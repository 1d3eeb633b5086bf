// The "lanes" picture (picture-lanes.ts) in the terminal: a row per step, numbered as the story
// numbers them, one lane column per writer (its letter where its call ran, "│" elsewhere), the
// reader's column ("→ old": what the load after that step returned), then the call; the failure's
// row starts with "✗", and a last line says what went wrong after which step. Only the steps just
// before the failure fit: at most 12 lines, never wider than the terminal, every mark a sign as
// well as a colour.
import type pc from "picocolors";
import stringWidth from "string-width";
import { hanging } from "./layout.js";
import { cut } from "./cut-to-width.js";
import { loadLabel, stepsCounted, type LanesLoad, type LanesPicture } from "../contract/picture-lanes.js";

type Colors = ReturnType<typeof pc.createColors>;
type Paint = (text: string) => string;

/** The most lines the picture takes. */
const MAX_LINES = 12;
/** Lines above the rows: the title and the column heads. */
const HEAD_LINES = 2;
/** The most lines what went wrong takes. */
const FAILURE_LINES = 2;

/** One row before it is fitted: its cells left of the call (each with its colour), the call, and lines under it. */
interface Row {
  cells: [string, Paint][];
  text: string;
  paint: Paint;
  under: string[];
  /** The steps it stands for (0 for the reader's first and last loads). */
  steps: number;
}

/** The picture's lines for a terminal `width` columns wide, indented by `indent`. */
export function lanesLines(picture: LanesPicture, opts: { width: number; indent: number; c: Colors }): string[] {
  const { width, indent, c } = opts;
  const pad = " ".repeat(indent);
  const rows = allRows(picture, c);
  const numberWidth = Math.max(4, ...rows.map((r) => stringWidth(r.cells[1]![0])));
  const readerWidth = Math.max(6, ...rows.map((r) => stringWidth(r.cells[3]![0])));
  const fitted = (row: Row) => fitRow(row, { pad, width, numberWidth, readerWidth });
  const failure = failureLines(picture, { width, indent });
  // The rows nearest the failure that fit, and one line counting the steps before them.
  let kept: Row[] = [];
  let used = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    const cost = 1 + rows[i]!.under.length;
    const before = i > 0 ? 1 : 0;
    if (kept.length > 0 && HEAD_LINES + failure.length + used + cost + before > MAX_LINES) break;
    kept = [rows[i]!, ...kept];
    used += cost;
  }
  const hidden = rows.slice(0, rows.length - kept.length).reduce((n, r) => n + r.steps, 0);
  const lanes = picture.writers.map((w) => w.name).join(" ");
  const out = [
    c.dim(pad + cut("A lane per writer; → what the reader's load returned:", width - indent)),
    c.dim(pad + cut(` ${"step".padStart(numberWidth)}  ${lanes}  ${"reader".padEnd(readerWidth)}  call`, width - indent)),
  ];
  if (hidden > 0) out.push(c.dim(pad + cut(` ${"…".padStart(numberWidth)}  ${hidden} step${hidden === 1 ? "" : "s"} before`, width - indent)));
  for (const row of kept) out.push(...fitted(row));
  out.push(...failure.map((l) => c.red(c.bold(l))));
  return out;
}

/** What went wrong after which step, on at most two lines (the second indented under the first). */
function failureLines(picture: LanesPicture, { width, indent }: { width: number; indent: number }): string[] {
  const lines = hanging(`✗ ${where(picture)}: ${picture.failure.short}`, { indent, width });
  if (lines.length <= FAILURE_LINES) return lines;
  return [...lines.slice(0, FAILURE_LINES - 1), cut(lines.slice(FAILURE_LINES - 1).join(" "), width)];
}

/** Where the failure fell, as the story says it. */
function where(picture: LanesPicture): string {
  const { kind, afterStep } = picture.failure;
  if (kind === "final") return "once every writer had returned";
  return afterStep === 0 ? "before any call" : `after step ${afterStep}`;
}

/** Every row the picture could show: the reader's first load, the steps (a gap as one row), the final load. */
function allRows(picture: LanesPicture, c: Colors): Row[] {
  const { writers, failure } = picture;
  const letter = [c.cyan, c.magenta, c.yellow];
  const lanesOf = (writer?: string): [string, Paint][] =>
    writers.map((w, i): [string, Paint] => (w.name === writer ? [w.name, (t) => c.bold(letter[i % letter.length]!(t))] : ["│", c.dim]));
  const join = (cells: [string, Paint][]): [string, Paint] => [cells.map(([t]) => t).join(" "), (t) => t.split(" ").map((p, i) => cells[i]![1](p)).join(" ")];
  const loadAt = (afterStep: number, final = false) => picture.loads.find((l) => l.afterStep === afterStep && !!l.final === final);
  const readerCell = (load?: LanesLoad): [string, Paint] => {
    if (!load) return ["│", c.dim];
    return load.wrong ? [`✗ ${loadLabel(load)}`, (t) => c.red(c.bold(t))] : [`→ ${loadLabel(load)}`, c.green];
  };
  const changedLines = (load?: LanesLoad) => (load?.changed ?? []).map((what) => `↳ the reader's load ${what}`);
  const marked = (n: number) => (failure.kind === "load" || failure.kind === "writer" ? failure.afterStep === n : false);
  const row = (label: string, mark: boolean, writer: string | undefined, load: LanesLoad | undefined, text: string, paint: Paint, steps: number): Row => ({
    cells: [[mark ? "✗" : " ", (t) => c.red(c.bold(t))], [label, mark ? (t) => c.red(c.bold(t)) : c.dim], join(lanesOf(writer)), readerCell(load)],
    text,
    paint,
    under: changedLines(load),
    steps,
  });
  const rows: Row[] = [];
  const first = loadAt(0);
  if (first) rows.push(row("", marked(0), undefined, first, "(before any call)", c.dim, 0));
  for (const step of picture.steps) {
    if (step.skipped) {
      rows.push({ cells: [[" ", c.dim], ["…", c.dim], join(lanesOf()), ["", c.dim]], text: `${step.skipped} more steps (${step.n} to ${step.n + step.skipped - 1})`, paint: c.dim, under: [], steps: step.skipped });
      continue;
    }
    const failedWriter = failure.kind === "writer" && failure.afterStep === step.n && failure.writer === step.writer;
    const text = `${step.what ?? ""}${step.failed ? " (it failed)" : ""}`;
    rows.push(row(String(step.n), marked(step.n), step.writer, loadAt(step.n), text, step.failed || failedWriter ? c.yellow : (t) => t, 1));
  }
  const last = loadAt(failure.afterStep, true);
  if (last) rows.push(row("end", !!last.wrong, undefined, last, "(once every writer had returned)", c.dim, 0));
  return rows;
}

/** A row as lines: its cells padded into columns, the call cut to what is left of the width. */
function fitRow(row: Row, opts: { pad: string; width: number; numberWidth: number; readerWidth: number }): string[] {
  const { pad, width, numberWidth, readerWidth } = opts;
  const [mark, number, lanes, reader] = row.cells;
  const widths = [1, numberWidth, stringWidth(lanes![0]), readerWidth];
  const cells = [mark!, number!, lanes!, reader!].map(([t, paint], i): [string, string] => {
    const padded = i === 1 ? t.padStart(widths[i]!) : t + " ".repeat(Math.max(0, widths[i]! - stringWidth(t)));
    return [padded, paint(padded)];
  });
  const plain = `${cells[0]![0]}${cells[1]![0]}  ${cells[2]![0]}  ${cells[3]![0]}  `;
  const room = width - stringWidth(pad + plain);
  const under = row.under.map((u) => pad + cut(`${" ".repeat(1 + numberWidth + 2)}${u}`, width - stringWidth(pad)));
  // Too narrow for the columns: the row as plain text, cut.
  if (room < 8) return [pad + cut(plain + row.text, width - stringWidth(pad)), ...under];
  const painted = `${cells[0]![1]}${cells[1]![1]}  ${cells[2]![1]}  ${cells[3]![1]}  `;
  return [pad + painted + row.paint(cut(row.text, room)), ...under];
}
