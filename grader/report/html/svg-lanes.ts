// The "lanes" picture (contract/picture-lanes.ts) as inline SVG: time runs down a numbered axis, one
// step a row, numbered as the story numbers them; a lane per writer, its cell (its letter) at each
// of its calls; the reader's lane with a badge at each load saying what it returned; the call's
// words beside. The failure has a second cue besides colour: "✗" on the wrong load's badge or the
// writer's cell, and a dashed line after its step with the story's words. Every element a test
// needs carries data-* attributes (data-step, data-load-after, data-failure), so the drawing can be
// checked without pixels.
import { loadLabel, type LanesLoad, type LanesPicture, type LanesStep } from "../../contract/picture-lanes.js";
import { esc } from "./escape.js";
import { failureWords, lanesWords, loadPlace, loadWords } from "./svg-lanes-words.js";
import { wrapText } from "./wrap.js";
import { CH, LINE, svgText as text } from "./svg-text.js";

/** The drawing's width, the character width of its 12 px monospace text, and a line's height. */
const WIDTH = 440;
/** The time axis, the right edge of the step numbers, the first writer's lane and the lanes' spacing. */
const AXIS_X = 10;
const NUMBER_X = 54;
const LANE_X = 74;
const LANE_W = 30;
const ROW = 24;
const CELL = 20;

/** Where things go across: each writer's lane, the reader's, and the calls' words. */
function columns(picture: LanesPicture): { lane: (i: number) => number; reader: number; textX: number; chars: number } {
  const reader = LANE_X + picture.writers.length * LANE_W + 24;
  const textX = reader + 46;
  return { lane: (i) => LANE_X + i * LANE_W, reader, textX, chars: Math.floor((WIDTH - textX - 4) / CH) };
}

/** A load's badge in the reader's lane: what it returned, "✗" before it when it is the failure. */
function loadBadge(load: LanesLoad, x: number, y: number): string {
  const label = `${load.wrong ? "✗ " : ""}${loadLabel(load)}`;
  const w = label.length * CH + 12;
  const attrs = `data-load-after="${load.afterStep}" data-saw="${esc(load.saw)}" data-label="${esc(loadLabel(load))}"${load.final ? ' data-final=""' : ""}${load.wrong ? ' data-wrong=""' : ""}`;
  return [
    `<g class="load saw-${load.saw.replace(" ", "-")}${load.wrong ? " wrong" : ""}" ${attrs}>`,
    `<title>${esc(`The reader's load ${loadPlace(load)} returned ${loadWords(load)}${load.wrong ? ": the first wrong one" : ""}`)}</title>`,
    `<rect x="${x - w / 2}" y="${y + 3}" width="${w}" height="${ROW - 6}" rx="9"/>`,
    text([label], x, y + 16, "load-label", ' text-anchor="middle"'),
    "</g>",
  ].join("");
}

/** What a load changed on disk, as lines under its row's words: "↳ then the reader's load removed …". */
function changedLines(load: LanesLoad | undefined, chars: number): string[] {
  return (load?.changed ?? []).flatMap((c) => wrapText(`↳ then the reader's load ${c}`, chars, 2));
}

/** One row: a step's number on the axis, its writer's cell, the reader's badge when it loaded after it, the call's words. */
function stepRow(picture: LanesPicture, step: LanesStep, y: number): { svg: string; height: number } {
  const { lane, reader, textX, chars } = columns(picture);
  const { failure } = picture;
  const load = picture.loads.find((l) => l.afterStep === step.n && !l.final);
  const lines = wrapText(`${step.what ?? ""}${step.failed ? " (it failed)" : ""}`, chars, 4);
  const under = changedLines(load, chars);
  const height = Math.max(ROW, (lines.length + under.length) * LINE + 8);
  const i = picture.writers.findIndex((w) => w.name === step.writer);
  const threw = failure.kind === "writer" && failure.afterStep === step.n && failure.writer === step.writer;
  const sign = `${threw || step.failed ? "✗" : ""}${step.writer}`;
  const cellW = sign.length > 1 ? CELL + 10 : CELL;
  const attrs = `data-step="${step.n}" data-writer="${esc(step.writer ?? "")}" data-what="${esc(step.what ?? "")}"${step.failed ? ' data-failed=""' : ""}${threw ? ' data-threw=""' : ""}`;
  const svg = [
    `<g class="step${step.failed ? " failed" : ""}${threw ? " threw" : ""}" ${attrs}>`,
    text([String(step.n)], NUMBER_X, y + 16, "step-number", ' text-anchor="end"'),
    `<line class="tick" x1="${AXIS_X - 4}" y1="${y + ROW / 2}" x2="${AXIS_X + 4}" y2="${y + ROW / 2}"/>`,
    `<g class="cell writer-${i}"><rect x="${lane(i) - cellW / 2}" y="${y + 2}" width="${cellW}" height="${ROW - 4}" rx="4"/>${text([sign], lane(i), y + 16, "cell-label", ' text-anchor="middle"')}</g>`,
    text(lines, textX, y + 16, "call-text"),
    under.length ? text(under, textX, y + 16 + lines.length * LINE, "changed-text") : "",
    "</g>",
    load ? loadBadge(load, reader, y) : "",
  ].join("");
  return { svg, height };
}

/** A row of steps the story leaves out: how many, and which. */
function gapRow(picture: LanesPicture, step: LanesStep, y: number): { svg: string; height: number } {
  const { textX } = columns(picture);
  const last = step.n + (step.skipped ?? 1) - 1;
  return { svg: `<g class="gap" data-gap-from="${step.n}" data-skipped="${step.skipped}">${text(["⋮"], NUMBER_X, y + 16, "step-number", ' text-anchor="end"')}${text([`⋯ ${step.skipped} more steps, ${step.n} to ${last} ⋯`], textX, y + 16, "gap-text")}</g>`, height: ROW };
}

/** A row for a load at no step: before the first call, or once every writer had returned. */
function loadRow(picture: LanesPicture, load: LanesLoad, y: number): { svg: string; height: number } {
  const { reader, textX, chars } = columns(picture);
  const words = wrapText(load.final ? "(once every writer had returned)" : "(before any call)", chars);
  const under = changedLines(load, chars);
  const label = text([load.final ? "end" : "start"], NUMBER_X, y + 16, "step-number", ' text-anchor="end"');
  const svg = `${label}${text(words, textX, y + 16, "gap-text")}${under.length ? text(under, textX, y + 16 + words.length * LINE, "changed-text") : ""}${loadBadge(load, reader, y)}`;
  return { svg, height: Math.max(ROW, (words.length + under.length) * LINE + 8) };
}

/** The failure's marker: a dashed line across the lanes after its step, "✗" and the story's words under it. */
function failureMarker(picture: LanesPicture, y: number): { svg: string; height: number } {
  const { kind, afterStep, writer } = picture.failure;
  const words = wrapText(`✗ ${failureWords(picture)}`, Math.floor((WIDTH - 16) / CH), 3);
  const attrs = `data-failure="" data-kind="${kind}" data-after-step="${afterStep}"${writer ? ` data-writer="${esc(writer)}"` : ""}`;
  const svg = `<g class="failure" ${attrs}><line x1="${AXIS_X}" y1="${y + 4}" x2="${WIDTH - 4}" y2="${y + 4}"/>${text(words, 8, y + 22, "failure-text")}</g>`;
  return { svg, height: 14 + words.length * LINE };
}

/** The picture as an inline SVG element, with its words as its text alternative. */
export function lanesSvg(picture: LanesPicture): string {
  const words = lanesWords(picture);
  const { lane, reader, textX } = columns(picture);
  const parts: string[] = [];
  const saves = picture.writers.map((w) => `${w.name} saves ${w.saves}`);
  const head = [...saves, picture.before === null ? "no checkpoint before" : `before: ${picture.before}`].flatMap((l) => wrapText(l, Math.floor((WIDTH - 8) / CH), 2));
  parts.push(text(head, 4, 16, "pic-head"));
  const headY = 16 + head.length * LINE + 8;
  const heads = [...picture.writers.map((w, i) => text([w.name], lane(i), headY, `lane-head writer-${i}`, ' text-anchor="middle"')), text(["reader"], reader, headY, "lane-head", ' text-anchor="middle"'), text(["call"], textX, headY, "lane-head")];
  parts.push(text(["time"], AXIS_X - 6, headY, "lane-head"), ...heads);
  const top = headY + 8;
  let y = top;
  const rows: string[] = [];
  const add = (row: { svg: string; height: number }) => {
    rows.push(row.svg);
    y += row.height;
  };
  const first = picture.loads.find((l) => l.afterStep === 0 && !l.final);
  if (first) add(loadRow(picture, first, y));
  const { failure } = picture;
  // The lanes end at the failure's line: nothing after it is drawn.
  let bottom: number | undefined;
  const mark = () => {
    bottom = y + 4;
    add(failureMarker(picture, y));
  };
  if (failure.afterStep === 0 && failure.kind !== "final") mark();
  for (const step of picture.steps) {
    add(step.skipped ? gapRow(picture, step, y) : stepRow(picture, step, y));
    if (!step.skipped && step.n === failure.afterStep && failure.kind !== "final") mark();
  }
  const last = picture.loads.find((l) => l.final);
  if (last) add(loadRow(picture, last, y));
  if (bottom === undefined) mark();
  // The lanes and the time axis, under the rows: a line down each lane, an arrow down the axis.
  const lanes = [
    ...picture.writers.map((w, i) => `<line class="lane writer-${i}" data-lane="${esc(w.name)}" x1="${lane(i)}" y1="${top}" x2="${lane(i)}" y2="${bottom}"/>`),
    `<line class="lane reader" data-lane="reader" x1="${reader}" y1="${top}" x2="${reader}" y2="${bottom}"/>`,
    `<line class="axis" x1="${AXIS_X}" y1="${top}" x2="${AXIS_X}" y2="${y}"/><path class="axis-arrow" d="M${AXIS_X - 4} ${y - 4}l4 8l4 -8z"/>`,
  ];
  const height = Math.ceil(y + 8);
  return `<svg xmlns="http://www.w3.org/2000/svg" class="lanes" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${esc(words)}"><title>${esc(words)}</title>${parts.join("")}${lanes.join("")}${rows.join("")}</svg>`;
}

/** The picture's rules in the page's one stylesheet (html/style.ts), under `svg.lanes`, using its colour variables. */
export const LANES_STYLE = `svg.lanes { display: block; width: 100%; max-width: 500px; height: auto; }
svg.lanes text { fill: var(--fg); font: 12px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
svg.lanes .pic-head { fill: var(--muted); }
svg.lanes .lane-head { font-weight: 700; }
svg.lanes .step-number, svg.lanes .gap-text, svg.lanes .changed-text { fill: var(--muted); }
svg.lanes .changed-text { font-style: italic; }
svg.lanes .lane { stroke: var(--line); stroke-width: 2; }
svg.lanes .axis, svg.lanes .tick { stroke: var(--muted); stroke-width: 1; }
svg.lanes .axis-arrow { fill: var(--muted); }
svg.lanes .cell rect { fill: var(--op-bg); stroke: var(--muted); stroke-width: 1.5; }
svg.lanes .writer-0 rect, svg.lanes line.writer-0 { stroke: var(--focus); }
svg.lanes .writer-1 rect, svg.lanes line.writer-1 { stroke: var(--err); }
svg.lanes .writer-2 rect, svg.lanes line.writer-2 { stroke: var(--warn); }
svg.lanes .cell-label { font-weight: 700; }
svg.lanes .step.failed .cell rect { stroke-dasharray: 3 2; fill: var(--warn-bg); }
svg.lanes .step.threw .cell rect { stroke: var(--bad); stroke-width: 2.5; fill: var(--bad-bg); }
svg.lanes .step.threw .cell-label { fill: var(--bad); }
svg.lanes .load rect { fill: var(--good-bg); stroke: var(--good); stroke-width: 1; }
svg.lanes .load.wrong rect { fill: var(--bad-bg); stroke: var(--bad); stroke-width: 2.5; }
svg.lanes .load.wrong .load-label { fill: var(--bad); font-weight: 700; }
svg.lanes .failure line { stroke: var(--bad); stroke-width: 2; stroke-dasharray: 6 3; }
svg.lanes .failure-text { fill: var(--bad); font-weight: 700; }`;
