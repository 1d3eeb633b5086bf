// The "diff" picture (picture-diff.ts) in the terminal: the two histories side by side, a column
// each, a line per step drawn; the steps before the divergence collapsed into one line, the first
// divergent step marked "≠" with the paths where its states differ under it (each "✓ listed" or
// "✗ left out" when the answer's paths were judged), and the step the answer returned marked "▶".
// Every mark is a sign and a word as well as a colour; at most 12 lines, never wider than the terminal.
import type pc from "picocolors";
import stringWidth from "string-width";
import { cut } from "./cut-to-width.js";
import { answerOffRow, diffSpans, extraLine, pathLine, rowLabel, stepsWord, type DiffPicture, type DiffRow, type DiffSpan } from "../contract/picture-diff.js";

type Colors = ReturnType<typeof pc.createColors>;

/** The most lines the picture takes. */
const MAX_LINES = 12;
/** Lines kept for the paths the answer returned that are no difference, at most. */
const EXTRA_LINES = 2;
/** A state's column is never narrower than this: below it, the rows' words are left to their signs. */
const MIN_COLUMN = 8;
/** The longest words a row is marked with, in columns. */
const MAX_LABEL = 28;

/** The picture's lines for a terminal `width` columns wide, indented by `indent`. */
export function diffLines(picture: DiffPicture, opts: { width: number; indent: number; c: Colors }): string[] {
  const { width, indent, c } = opts;
  const pad = " ".repeat(indent);
  const room = width - indent;
  const fit = (text: string) => pad + cut(text, room);
  const grid = columns(picture, room);
  const head = [c.dim(fit(`${picture.call}: ${picture.a.steps === picture.b.steps ? `${steps(picture.a.steps)} each` : `${steps(picture.a.steps)} and ${steps(picture.b.steps)}`}`))];
  head.push(c.dim(fit(`${" ".repeat(GUTTER)}${cell("step", grid.step)}  ${cell(picture.a.name, grid.column)}  ${picture.b.name}`)));
  const answerLine = answerOffRow(picture) ? [c.yellow(c.bold(fit(`▶ ${picture.call} ${answerOffRow(picture)}`)))] : [];
  let spans = diffSpans(picture);
  // The paths get the lines that remain; the steps after the divergence are the first left out for them.
  const last = spans.at(-1);
  const spare = () => MAX_LINES - head.length - spans.length - answerLine.length;
  if (last && "from" in last && !last.same && pathCount(picture) > spare()) spans = spans.slice(0, -1);
  const paths = pathLines(picture, spare(), fit, c);
  const body = spans.flatMap((span): string[] => {
    if ("from" in span) return [c.dim(fit(`${" ".repeat(GUTTER + grid.step + 2)}${stepsWord(span.from, span.to)}${span.same ? `: the same in ${picture.a.name} and ${picture.b.name}` : ": after the first divergence"}`))];
    return [rowLine(picture, span.row, grid, fit, c), ...(span.row.step === picture.step ? paths : [])];
  });
  return [...head, ...body, ...answerLine];
}

/** Columns of the marks before a step: "▶" for the answer's, "≠" for the divergence, and a space. */
const GUTTER = 3;

/** The widths of the step column, each state's column and the rows' words (0 when they do not fit). */
function columns(picture: DiffPicture, room: number): { step: number; column: number; label: number } {
  const step = Math.max(4, String(Math.max(picture.a.steps, picture.b.steps)).length);
  const labels = picture.rows.map((r) => Math.min(MAX_LABEL, stringWidth(rowLabel(picture, r.step))));
  const label = Math.max(0, ...labels);
  const column = (withLabel: number) => Math.floor((room - GUTTER - step - 4 - (withLabel ? withLabel + 2 : 0)) / 2);
  return column(label) >= MIN_COLUMN ? { step, column: column(label), label } : { step, column: Math.max(1, column(0)), label: 0 };
}

/** One step side by side: its marks, its number, each side's state (or "(no such step)"), and the words of its marks. */
function rowLine(picture: DiffPicture, row: DiffRow, grid: ReturnType<typeof columns>, fit: (text: string) => string, c: Colors): string {
  const answer = row.step === picture.answer?.step;
  const diverged = row.step === picture.step;
  const marks = `${answer ? "▶" : " "}${diverged ? "≠" : " "} `;
  const label = grid.label > 0 && (answer || diverged) ? `  ${cut(rowLabel(picture, row.step), grid.label)}` : "";
  const text = `${marks}${cell(String(row.step), grid.step)}  ${cell(row.a ?? "(no such step)", grid.column)}  ${cell(row.b ?? "(no such step)", grid.column)}${label}`;
  if (diverged) return c.red(c.bold(fit(text)));
  return answer ? c.yellow(c.bold(fit(text))) : fit(text);
}

/** The paths where the divergent step's states differ, in at most `lines` lines: the answer's paths that are no difference first kept, then the paths in order, then how many more. */
function pathLines(picture: DiffPicture, lines: number, fit: (text: string) => string, c: Colors): string[] {
  const indent = " ".repeat(GUTTER + 2);
  const extra = (picture.answer?.extra ?? []).map((p) => c.red(fit(`${indent}${extraLine(p)}`)));
  const listed = picture.paths.map((p) => {
    const line = fit(`${indent}${pathLine(p, picture)}`);
    return p.listed === undefined ? line : p.listed ? c.green(line) : c.red(line);
  });
  const total = pathCount(picture);
  if (total <= lines) return [...listed, ...(picture.morePaths ? [c.dim(fit(`${indent}… and ${picture.morePaths} more paths`))] : []), ...extra];
  const room = Math.max(0, lines - 1);
  const keptExtra = extra.slice(0, Math.min(EXTRA_LINES, room));
  const kept = [...listed.slice(0, room - keptExtra.length), ...keptExtra];
  const hidden = picture.paths.length + picture.morePaths + extra.length - kept.length;
  return [...kept, c.dim(fit(`${indent}… and ${hidden} more paths`))];
}

/** The lines the paths take when all are shown: one a path, one for those not carried, one a path the answer returned that is no difference. */
function pathCount(picture: DiffPicture): number {
  return picture.paths.length + (picture.morePaths > 0 ? 1 : 0) + (picture.answer?.extra?.length ?? 0);
}

/** `text` cut or padded to exactly `width` columns. */
function cell(text: string, width: number): string {
  const shown = cut(text, width);
  return shown + " ".repeat(Math.max(0, width - stringWidth(shown)));
}

function steps(n: number): string {
  return `${n} step${n === 1 ? "" : "s"}`;
}
