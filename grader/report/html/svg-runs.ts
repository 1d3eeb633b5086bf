// The "runs" picture (contract/picture-runs.ts) as inline SVG: a step axis 1..N across the top, a
// lane per run with its label, a cell for each step it ran, the kill marker (a dashed line with
// "✂") between two cells or inside one, a step run again marked "×2" with a dashed outline, what
// the story counts against the target in the failure colour with "✗", and the step the story
// names outlined down the whole axis, its words beneath. Every element a test needs carries data-*
// attributes (data-run, data-step, data-at), so the drawing can be checked without pixels.
import { isWrongCell, runLabel, type PictureCell, type PictureRun, type RunsPicture } from "../../contract/picture-runs.js";
import { esc } from "./escape.js";
import { wrapText } from "./wrap.js";
import { ordinal } from "../sizes.js";
import { CH, LINE, svgText as text } from "./svg-text.js";

/** The character width of the 12 px monospace text, a line's height, and the geometry of lanes and cells. */
const LABEL_W = 136;
const CELL = 26;
const LANE = 30;
const AXIS_Y = 40;

/** The x of the left edge of step `step`'s column. */
const colX = (step: number) => LABEL_W + (step - 1) * CELL;

/** A run's label in the lane, short enough for its column: "run 1, max 4", "session 2, max 4". */
function laneLabel(picture: RunsPicture, i: number): string {
  const budget = picture.runs[i]!.budget;
  return `${runLabel(picture, i)}${budget === undefined ? "" : `, max ${budget}`}`;
}

/** One step a run performed, as a cell: ran, ran again ("×2", dashed) or counted against the target ("✗"). */
function cellSvg(picture: RunsPicture, run: number, cell: PictureCell, y: number): string {
  const wrong = isWrongCell(picture, cell);
  const state = wrong ? "wrong" : cell.time > 1 ? "again" : "ran";
  const sign = wrong ? (cell.wrongState ? "✗!" : `✗${cell.time}`) : cell.time > 1 ? `×${cell.time}` : "";
  const x = colX(cell.step);
  const attrs = `data-run="${run}" data-step="${cell.step}" data-time="${cell.time}"${cell.wrongState ? ' data-wrong-state=""' : ""}${wrong ? ' data-wrong=""' : ""}`;
  return `<g class="cell ${state}" ${attrs}><rect x="${x + 2}" y="${y + 4}" width="${CELL - 4}" height="${LANE - 10}" rx="3"/>${sign ? text([sign], x + CELL / 2, y + 18, "cell-sign", ' text-anchor="middle"') : ""}</g>`;
}

/** The kill marker: a dashed line where the run was killed (between cells, or inside one), "✂" beside it, the story's words as its title. */
function killSvg(run: number, killed: NonNullable<PictureRun["killed"]>, y: number): string {
  const { step, at } = killed;
  const x = at === "before" ? colX(step) : at === "after" ? colX(step + 1) : at === "in-window" ? colX(step) + CELL - 5 : colX(step) + 5;
  const entered = at === "in-step" ? `<rect class="entered" x="${colX(step) + 2}" y="${y + 4}" width="${CELL - 4}" height="${LANE - 10}" rx="3"/>` : "";
  return `<g class="kill" data-run="${run}" data-step="${step}" data-at="${at}"><title>${esc(`killed ${killed.words}`)}</title>${entered}<line x1="${x}" y1="${y}" x2="${x}" y2="${y + LANE}"/>${text(["✂"], x + 2, y + 12, "kill-sign")}</g>`;
}

/** One run's lane: its label, its cells, where it was killed, and what it printed (a session). */
function laneSvg(picture: RunsPicture, i: number, y: number): { svg: string; height: number } {
  const run = picture.runs[i]!;
  const wrongRun = picture.wrong?.run === i + 1;
  const parts = [
    `<g class="lane${wrongRun ? " wrong-run" : ""}" data-run="${i + 1}"${run.budget === undefined ? "" : ` data-budget="${run.budget}"`}${wrongRun ? ' data-wrong=""' : ""}>`,
    `<rect class="lane-bg" x="${LABEL_W}" y="${y + 2}" width="${picture.steps * CELL}" height="${LANE - 4}"/>`,
    text([`${wrongRun ? "✗ " : ""}${laneLabel(picture, i)}`], 4, y + 19, "lane-label"),
    ...run.cells.map((cell) => cellSvg(picture, i + 1, cell, y)),
    run.killed ? killSvg(i + 1, run.killed, y) : "",
  ];
  let height = LANE;
  if (run.printed) {
    const words = `${run.printed.wrong ? "✗ " : ""}printed ${run.printed.line}`;
    const lines = wrapText(words, Math.floor((LABEL_W + picture.steps * CELL - 16) / CH), 2);
    parts.push(`<g class="printed${run.printed.wrong ? " wrong" : ""}" data-run="${i + 1}" data-printed="${esc(run.printed.line)}">${text(lines, 16, y + LANE + 8, "printed-text")}</g>`);
    height += lines.length * LINE + 2;
  }
  parts.push("</g>");
  return { svg: parts.join(""), height };
}

/** The picture as an inline SVG element, with its words as its text alternative. */
export function runsSvg(picture: RunsPicture): string {
  const words = runsWords(picture);
  const width = LABEL_W + picture.steps * CELL + 16;
  const chars = Math.floor((width - 8) / CH);
  const parts: string[] = [text([`Each ${picture.unit}, step by step`], 4, 16, "pic-heading")];
  parts.push(`<g class="axis">${Array.from({ length: picture.steps }, (_, k) => text([String(k + 1)], colX(k + 1) + CELL / 2, AXIS_Y - 6, "axis-step", ` text-anchor="middle" data-step="${k + 1}"`)).join("")}<line x1="${LABEL_W}" y1="${AXIS_Y}" x2="${colX(picture.steps + 1)}" y2="${AXIS_Y}"/></g>`);
  let y = AXIS_Y + 2;
  const lanes = picture.runs.map((_, i) => {
    const lane = laneSvg(picture, i, y);
    y += lane.height;
    return lane.svg;
  });
  const step = picture.wrong?.step;
  if (step !== undefined && step >= 1 && step <= picture.steps) {
    parts.push(`<rect class="wrong-step" data-step="${step}" x="${colX(step) + 1}" y="${AXIS_Y - 20}" width="${CELL - 2}" height="${y - AXIS_Y + 22}" rx="4"/>`);
  }
  parts.push(...lanes);
  if (picture.wrong) {
    const lines = wrapText(`✗ ${picture.wrong.says}`, chars, 3);
    parts.push(`<g class="wrong-says"${step === undefined ? "" : ` data-step="${step}"`}${picture.wrong.run === undefined ? "" : ` data-run="${picture.wrong.run}"`}>${text(lines, 4, y + 18, "wrong-text")}</g>`);
    y += 8 + lines.length * LINE;
  }
  // The legend in as many lines as it takes, each cue whole on one; the picture is as tall as they are.
  const key = legendLines(picture, chars);
  parts.push(text(key, 4, y + 22, "legend"));
  const height = Math.ceil(y + 30 + (key.length - 1) * LINE);
  return `<svg xmlns="http://www.w3.org/2000/svg" class="runs" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(words)}" data-unit="${picture.unit}" data-steps="${picture.steps}"><title>${esc(words)}</title>${parts.join("")}</svg>`;
}

/** What each cue of the drawing means, in lines of at most `chars` characters: a cue ("✗: wrong") is never split across two. */
function legendLines(picture: RunsPicture, chars: number): string[] {
  const cells = picture.runs.flatMap((r) => r.cells);
  const cues = ["filled: ran"];
  if (cells.some((c) => c.time > 1 && !isWrongCell(picture, c))) cues.push("×2, dashed: ran again");
  if (picture.runs.some((r) => r.killed)) cues.push("✂: killed");
  if (picture.wrong || cells.some((c) => isWrongCell(picture, c))) cues.push("✗: wrong");
  const lines: string[] = [];
  for (const cue of cues) {
    const joined = lines.length > 0 ? `${lines.at(-1)} · ${cue}` : cue;
    if (lines.length > 0 && joined.length <= chars) lines[lines.length - 1] = joined;
    else lines.push(cue);
  }
  return lines;
}

/** "steps 1, 2 and 3", "step 4", "no step". */
function stepsWords(cells: PictureCell[]): string {
  const steps = cells.map((c) => `${c.step}${c.time > 1 ? ` (its ${nthRun(c.time)} run)` : ""}`);
  if (steps.length === 0) return "no step";
  if (steps.length === 1) return `step ${steps[0]}`;
  return `steps ${steps.slice(0, -1).join(", ")} and ${steps.at(-1)}`;
}

/** A step's 2nd or later run, as the picture's words say it: "second", "third", "4th", "22nd". */
function nthRun(n: number): string {
  return n === 2 ? "second" : n === 3 ? "third" : ordinal(n);
}

/** The whole picture in words: each run, the steps it ran, where it was killed, what it printed, and what the story says is wrong. */
export function runsWords(picture: RunsPicture): string {
  const runs = picture.runs.map((run, i) => {
    const killed = run.killed ? `, and was killed ${run.killed.words}` : "";
    const printed = run.printed ? `; it printed ${run.printed.line}${run.printed.wrong ? " (wrong)" : ""}` : "";
    return `${laneLabel(picture, i)} ran ${stepsWords(run.cells)}${killed}${printed}.`;
  });
  const wrong = picture.wrong ? ` Wrong: ${picture.wrong.says}.` : "";
  return `The ${picture.unit}s of the task's ${picture.steps} steps, in order. ${runs.join(" ")}${wrong}`;
}

/** The picture's rules in the page's one stylesheet (html/style.ts), under `svg.runs`, using its colour variables. */
export const RUNS_STYLE = `
svg.runs { max-width: 100%; height: auto; }
svg.runs text { fill: var(--fg); font: 12px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
svg.runs .pic-heading, svg.runs .axis-step, svg.runs .legend { fill: var(--muted); }
svg.runs .axis line { stroke: var(--muted); stroke-width: 1; }
svg.runs .lane-bg { fill: var(--panel); stroke: var(--line); stroke-width: 1; }
svg.runs .cell rect { fill: var(--good-bg); stroke: var(--good); stroke-width: 1.5; }
svg.runs .cell.again rect { fill: var(--warn-bg); stroke: var(--warn); stroke-dasharray: 4 2; }
svg.runs .cell.wrong rect { fill: var(--bad-bg); stroke: var(--bad); stroke-width: 2.5; }
svg.runs .cell-sign { font-weight: 700; }
svg.runs .cell.again .cell-sign { fill: var(--warn); }
svg.runs .cell.wrong .cell-sign, svg.runs .wrong-run .lane-label, svg.runs .printed.wrong text, svg.runs .wrong-text { fill: var(--bad); font-weight: 700; }
svg.runs .entered { fill: none; stroke: var(--muted); stroke-dasharray: 2 2; }
svg.runs .kill line { stroke: var(--bad); stroke-width: 2.5; stroke-dasharray: 5 2; }
svg.runs .kill-sign { fill: var(--bad); font-weight: 700; }
svg.runs .wrong-step { fill: none; stroke: var(--bad); stroke-width: 2; stroke-dasharray: 6 3; }
svg.runs .printed-text { fill: var(--muted); }
`;
