// The "diff" picture (contract/picture-diff.ts) as inline SVG: the two histories as two lanes of
// cells down a step axis; the steps before the divergence one dashed band ("the same"), the first
// divergent step's cells outlined with "≠" between them and the paths where they differ listed
// under them, and the step the answer returned marked "▶" with its words. Colours come from the
// page's stylesheet (light and dark); every mark is also a sign or a word. `data-*` attributes
// say what each element stands for, for tests that read the drawing rather than its pixels.
import { answerOffRow, diffSpans, extraLine, pathLine, rowLabel, stepsWord, type DiffPicture, type DiffRow } from "../../contract/picture-diff.js";
import { esc } from "./escape.js";
import { diffWords } from "./svg-diff-words.js";
import { wrapText } from "./wrap.js";
import { CH, LINE, svgText as text } from "./svg-text.js";

/** The drawing's width in px, and the width of a character of its 12 px monospace text. */
const WIDTH = 400;
/** The step axis, and the two lanes right of it with a gap between them for "≠". */
const AXIS_X = 44;
const LANE_A = 58;
const GAP = 18;
const LANE_WIDTH = (WIDTH - 4 - LANE_A - GAP) / 2;
const LANE_B = LANE_A + LANE_WIDTH + GAP;
const CELL_HEIGHT = 24;
/** Characters of a state in a cell, and of a line of text across both lanes. */
const CELL_CHARS = Math.floor((LANE_WIDTH - 12) / CH);
const WIDE_CHARS = Math.floor((WIDTH - 4 - LANE_A - 16) / CH);

/** `text` in at most `chars` characters, "…" where it was cut. */
function clip(value: string, chars: number): string {
  const all = [...value];
  return all.length <= chars ? value : `${all.slice(0, chars - 1).join("")}…`;
}

/** One side's cell at a step: its state in short, or a dashed "(no such step)". */
function cell(side: "a" | "b", state: string | undefined, y: number): string {
  const x = side === "a" ? LANE_A : LANE_B;
  const missing = state === undefined ? ' data-missing=""' : "";
  return `<g class="cell side-${side}${state === undefined ? " missing" : ""}" data-side="${side}"${missing}><rect x="${x}" y="${y}" width="${LANE_WIDTH}" height="${CELL_HEIGHT}" rx="3"/>${text([clip(state ?? "(no such step)", CELL_CHARS)], x + 6, y + 16, "state")}</g>`;
}

/** One step drawn: its number on the axis, both cells, and the marks of the divergence and of the answer, each a sign and words. */
function rowSvg(picture: DiffPicture, row: DiffRow, y: number): { svg: string; height: number } {
  const diverged = row.step === picture.step;
  const answer = row.step === picture.answer?.step;
  const classes = ["row", diverged ? "diverged" : "", answer ? "answer" : ""].filter(Boolean).join(" ");
  const data = `data-step="${row.step}"${diverged ? ' data-divergence=""' : ""}${answer ? ` data-answer="" data-answer-step="${row.step}"` : ""}`;
  const label = rowLabel(picture, row.step);
  const parts = [
    `<g class="${classes}" ${data}>`,
    `<circle class="tick" cx="${AXIS_X}" cy="${y + CELL_HEIGHT / 2}" r="3"/>`,
    text([String(row.step)], AXIS_X - 8, y + 16, "step-number", ' text-anchor="end"'),
    answer ? text(["▶"], 4, y + 16, "answer-mark") : "",
    cell("a", row.a, y),
    diverged ? text(["≠"], LANE_A + LANE_WIDTH + GAP / 2, y + 17, "neq", ' text-anchor="middle"') : "",
    cell("b", row.b, y),
    label ? text([`${diverged ? "≠ " : "▶ "}${label}`], LANE_A, y + CELL_HEIGHT + 14, "row-label") : "",
    "</g>",
  ];
  return { svg: parts.join(""), height: CELL_HEIGHT + (label ? 22 : 6) };
}

/** A run of steps not drawn: one dashed band across both lanes, "the same" before the divergence. */
function spanSvg(picture: DiffPicture, from: number, to: number, same: boolean, y: number): { svg: string; height: number } {
  const words = `${stepsWord(from, to)}${same ? `: the same in ${picture.a.name} and ${picture.b.name}` : ": after the first divergence"}`;
  const steps = text([from === to ? String(from) : `${from}-${to}`], AXIS_X - 8, y + 16, "step-number", ' text-anchor="end"');
  const svg = `<g class="span ${same ? "same" : "after"}" data-from="${from}" data-to="${to}">${steps}<rect x="${LANE_A}" y="${y}" width="${WIDTH - 4 - LANE_A}" height="${CELL_HEIGHT}" rx="3"/>${text([clip(words, WIDE_CHARS)], LANE_A + 6, y + 16, "span-label")}</g>`;
  return { svg, height: CELL_HEIGHT + 6 };
}

/** The paths where the divergent step's states differ, each with its sign (and whether the answer listed it), then those the answer returned that are no difference. */
function pathsSvg(picture: DiffPicture, y: number): { svg: string; height: number } {
  const items: { cls: string; data: string; words: string }[] = picture.paths.map((p) => ({
    cls: `path in-${p.in}${p.listed === undefined ? "" : p.listed ? " listed" : " left-out"}`,
    data: `data-path="${esc(JSON.stringify(p.path))}" data-in="${p.in}"${p.listed === undefined ? "" : ` data-listed="${p.listed}"`}`,
    words: `${p.listed === undefined ? "• " : ""}${pathLine(p, picture)}`,
  }));
  if (picture.morePaths > 0) items.push({ cls: "path more", data: `data-more="${picture.morePaths}"`, words: `… and ${picture.morePaths} more paths` });
  for (const p of picture.answer?.extra ?? []) items.push({ cls: "path extra", data: `data-extra-path="${esc(JSON.stringify(p))}"`, words: extraLine(p) });
  const parts: string[] = [];
  let at = y + 6;
  for (const item of items) {
    const lines = wrapText(item.words, WIDE_CHARS, 3);
    parts.push(`<g class="${item.cls}" ${item.data}>${text(lines, LANE_A + 8, at + 12, "path-text")}</g>`);
    at += lines.length * LINE + 4;
  }
  const height = at - y + 4;
  return { svg: `<g class="paths" data-paths-step="${picture.step}"><rect class="paths-box" x="${LANE_A}" y="${y}" width="${WIDTH - 4 - LANE_A}" height="${height}" rx="3"/>${parts.join("")}</g>`, height: height + 8 };
}

/** An answer that points at no step drawn (null, a step neither history has, or a throw): its own line under the lanes. */
function answerLine(picture: DiffPicture, y: number): { svg: string; height: number } {
  const lines = wrapText(`▶ ${answerOffRow(picture)}`, Math.floor((WIDTH - 8) / CH), 3);
  const step = picture.answer?.step === undefined ? "" : ` data-answer-step="${picture.answer.step}"`;
  return { svg: `<g class="answer outside" data-answer=""${step}>${text(lines, 4, y + 14, "answer-label")}</g>`, height: lines.length * LINE + 10 };
}

/** The picture as an inline SVG element, with its words as its text alternative. */
export function diffSvg(picture: DiffPicture): string {
  const words = diffWords(picture);
  const parts: string[] = [];
  const call = wrapText(picture.call, Math.floor((WIDTH - 8) / CH), 2);
  parts.push(text(call, 4, 16, "pic-call"));
  let y = 16 + call.length * LINE;
  const head = (side: DiffPicture["a"], x: number, which: "a" | "b") => text([clip(`${side.name}: ${side.steps} step${side.steps === 1 ? "" : "s"}`, CELL_CHARS)], x, y + 4, "lane-head", ` data-side="${which}"`);
  parts.push(text(["step"], AXIS_X - 8, y + 4, "lane-head", ' text-anchor="end"'), head(picture.a, LANE_A, "a"), head(picture.b, LANE_B, "b"));
  y += 14;
  const top = y;
  for (const span of diffSpans(picture)) {
    const drawn = "from" in span ? spanSvg(picture, span.from, span.to, span.same, y) : rowSvg(picture, span.row, y);
    parts.push(drawn.svg);
    y += drawn.height;
    if ("row" in span && span.row.step === picture.step && (picture.paths.length > 0 || picture.answer?.extra?.length)) {
      const paths = pathsSvg(picture, y);
      parts.push(paths.svg);
      y += paths.height;
    }
  }
  // The axis runs down the steps, under their ticks.
  parts.splice(1, 0, `<line class="axis" x1="${AXIS_X}" y1="${top}" x2="${AXIS_X}" y2="${y}"/>`);
  if (answerOffRow(picture)) {
    const line = answerLine(picture, y);
    parts.push(line.svg);
    y += line.height;
  }
  const height = Math.ceil(y + 4);
  const data = `data-step="${picture.step ?? "none"}"${picture.answer?.step !== undefined ? ` data-answer-step="${picture.answer.step}"` : ""}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="diff" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${esc(words)}" ${data}><title>${esc(words)}</title>${parts.join("")}</svg>`;
}

/** The picture's rules in the page's one stylesheet (html/style.ts), under `svg.diff`, using its colour variables. */
export const DIFF_STYLE = `
svg.diff { display: block; width: 100%; max-width: 500px; height: auto; }
svg.diff text { fill: var(--fg); font: 12px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
svg.diff .pic-call { font-weight: 700; }
svg.diff .lane-head, svg.diff .step-number, svg.diff .span-label { fill: var(--muted); }
svg.diff .axis { stroke: var(--line); stroke-width: 2; }
svg.diff .tick { fill: var(--bg); stroke: var(--muted); stroke-width: 1.5; }
svg.diff .cell rect { fill: var(--op-bg); stroke: var(--muted); stroke-width: 1; }
svg.diff .cell.missing rect { stroke-dasharray: 4 3; }
svg.diff .cell.missing text { fill: var(--muted); font-style: italic; }
svg.diff .span rect { fill: var(--panel); stroke: var(--line); stroke-dasharray: 6 3; }
svg.diff .span.same rect { fill: var(--good-bg); stroke: var(--good); }
svg.diff .row.diverged .cell rect { fill: var(--bad-bg); stroke: var(--bad); stroke-width: 2; }
svg.diff .row.diverged .tick { fill: var(--bad); stroke: var(--bad); }
svg.diff .neq { fill: var(--bad); font-weight: 700; font-size: 16px; }
svg.diff .row-label { font-weight: 700; fill: var(--bad); }
svg.diff .row.answer:not(.diverged) .row-label, svg.diff .answer-mark, svg.diff .answer-label { fill: var(--warn); font-weight: 700; }
svg.diff .row.answer:not(.diverged) .cell rect { stroke: var(--warn); stroke-width: 2; stroke-dasharray: 2 2; }
svg.diff .paths-box { fill: var(--code); stroke: var(--bad); stroke-width: 1; }
svg.diff .path.listed text { fill: var(--good); }
svg.diff .path.left-out text, svg.diff .path.extra text { fill: var(--bad); font-weight: 700; }
svg.diff .path.more text { fill: var(--muted); }
`;
