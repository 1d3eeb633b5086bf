// A failure's picture (contract/picture.ts, kind "calls") as inline SVG: the call's file-system
// calls in a column, in the order they ran; the crash marker between two of them, or inside a
// write with a bar of how many of its bytes reached the file; then the folder after the crash,
// each file with its size and a label of what it holds. A fault outlines the call the disk said no
// to, with a bar of the bytes a write wrote and a ✗ label; the calls after it ran, drawn solid.
// Colours come from the page's stylesheet (light and dark), and every state has a second cue: a
// dashed outline, a word, a label.
import { opNumbers, type CallsPicture, type Picture, type PictureFile } from "../../contract/picture.js";
import { bytesWord, esc } from "./escape.js";
import { afterWords, faultLabel, HOLDS_LABEL, pictureWords, skippedOf } from "./picture-words.js";
import { diffWords } from "./svg-diff-words.js";
import { diffSvg } from "./svg-diff.js";
import { lanesWords } from "./svg-lanes-words.js";
import { lanesSvg } from "./svg-lanes.js";
import { runsSvg, runsWords } from "./svg-runs.js";
import { wrapText } from "./wrap.js";
import { CH, LINE, svgText as text } from "./svg-text.js";

/** The drawing's width in px, and the width of a character of its 12 px monospace text. */
const WIDTH = 340;
/** Where the calls' boxes start (their numbers are right of 0, left of it), and the text in them. */
const BOX_X = 30;
const TEXT_X = BOX_X + 8;
const TEXT_CHARS = Math.floor((WIDTH - 4 - TEXT_X - 8) / CH);
const BAR_WIDTH = 150;

/** The crash marker between two calls: a dashed line across the column, and what happened. */
function marker(picture: CallsPicture, y: number): string {
  const { afterOps, how } = picture.cut;
  const label = how === "killed" ? "✂ killed here" : "⚡ power cut here";
  // The label sits on a patch of the background, which the dashed line does not cross.
  const patch = `<rect class="cut-patch" x="${BOX_X + 2}" y="${y - 8}" width="${label.length * CH + 12}" height="16"/>`;
  return `<g class="cut" data-cut="" data-after-ops="${afterOps}" data-how="${esc(how)}"><line x1="2" y1="${y}" x2="${WIDTH - 2}" y2="${y}"/>${patch}${text([label], BOX_X + 8, y + 4, "cut-label")}</g>`;
}

/** A bar of a write's `bytes`, filled as far as `written` of them went, with a line where they stop. */
function bytesBar(written: number, bytes: number, y: number): string {
  const filled = bytes > 0 ? Math.round((BAR_WIDTH * Math.min(written, bytes)) / bytes) : 0;
  return [
    `<rect class="bar-bg" x="${TEXT_X}" y="${y}" width="${BAR_WIDTH}" height="10" rx="2"/>`,
    `<rect class="bar-fill" x="${TEXT_X}" y="${y}" width="${filled}" height="10" rx="2"/>`,
    `<line x1="${TEXT_X + filled}" y1="${y - 4}" x2="${TEXT_X + filled}" y2="${y + 14}"/>`,
    text([`${written} of ${bytesWord(bytes)}`], TEXT_X + BAR_WIDTH + 8, y + 9, "bar-label"),
  ].join("");
}

/** The crash inside a write: a bar of the write's bytes filled as far as they reached the file, and the marker at that point. */
function writeBar(picture: CallsPicture, bytes: number, y: number): string {
  const written = picture.cut.written ?? 0;
  const how = picture.cut.how === "killed" ? "✂ killed" : "⚡ power cut";
  return [
    `<g class="cut" data-cut="" data-after-ops="${picture.cut.afterOps}" data-written="${written}" data-how="${esc(picture.cut.how)}">`,
    bytesBar(written, bytes, y),
    text([`${how} inside this write`], TEXT_X, y + 28, "cut-label"),
    "</g>",
  ].join("");
}

/** The fault's label in lines that fit the call's box. */
function faultLines(picture: CallsPicture): string[] {
  return wrapText(`✗ ${faultLabel(picture)}`, TEXT_CHARS);
}

/** How much taller the faulted call's box is: the bar of a write's bytes, and the fault's label. */
function faultHeight(picture: CallsPicture): number {
  return (picture.cut.written !== undefined ? 22 : 0) + faultLines(picture).length * LINE + 4;
}

/** The fault inside the call the disk said no to: for a write, a bar of the bytes it wrote; and what the disk said. */
function faultMark(picture: CallsPicture, bytes: number, y: number): string {
  const { afterOps, written, fault } = picture.cut;
  const bar = written !== undefined ? bytesBar(written, bytes, y) : "";
  return [
    `<g class="fault-mark" data-fault="${esc(fault ?? "")}" data-after-ops="${afterOps}"${written !== undefined ? ` data-written="${written}"` : ""}>`,
    bar,
    text(faultLines(picture), TEXT_X, y + (bar ? 28 : 10), "fault-label"),
    "</g>",
  ].join("");
}

/** One file of the folder after the crash: its name, its size and a label of what it holds. */
function fileRow(file: PictureFile, y: number): { svg: string; height: number } {
  const name = wrapText(file.name, TEXT_CHARS);
  const size = bytesWord(file.bytes);
  const label = HOLDS_LABEL[file.holds];
  const sizeY = y + 12 + name.length * LINE;
  const badgeX = TEXT_X + size.length * CH + 10;
  const svg = [
    `<g class="file holds-${file.holds}" data-file="${esc(file.name)}" data-holds="${file.holds}">`,
    `<path class="file-icon" d="M${BOX_X - 22} ${y + 2}h9l5 5v13h-14z"/>`,
    text(name, TEXT_X, y + 12, "file-name"),
    text([size], TEXT_X, sizeY, "file-size"),
    `<g class="badge"><rect x="${badgeX}" y="${sizeY - 12}" width="${label.length * CH + 12}" height="16" rx="8"/>`,
    text([label], badgeX + 6, sizeY, "badge-label"),
    "</g></g>",
  ].join("");
  return { svg, height: name.length * LINE + 26 };
}

/** A failure's picture, of any kind, as an inline SVG element with its words as its text alternative. */
export function pictureSvg(picture: Picture): string {
  switch (picture.kind) {
    case "calls":
      return callsSvg(picture);
    case "runs":
      return runsSvg(picture);
    case "lanes":
      return lanesSvg(picture);
    case "diff":
      return diffSvg(picture);
  }
}

/** A failure's picture, of any kind, in words: its SVG's text alternative, and what an image of it is given as alt text. */
export function pictureAltText(picture: Picture): string {
  switch (picture.kind) {
    case "calls":
      return pictureWords(picture);
    case "runs":
      return runsWords(picture);
    case "lanes":
      return lanesWords(picture);
    case "diff":
      return diffWords(picture);
  }
}

/** A "calls" picture as an inline SVG element, with its words as its text alternative. */
function callsSvg(picture: CallsPicture): string {
  const words = pictureWords(picture);
  const numbers = opNumbers(picture);
  const { afterOps, written, how } = picture.cut;
  const faulted = how === "fault";
  const inWrite = !faulted && written !== undefined && afterOps < picture.ops.length;
  const parts: string[] = [];
  const call = wrapText(picture.call, Math.floor((WIDTH - 8) / CH), 3);
  parts.push(text(call, 4, 16, "pic-call"));
  let y = 16 + call.length * LINE;
  const gap = () => {
    parts.push(marker(picture, y + 10));
    y += 22;
  };
  picture.ops.forEach((op, i) => {
    if (i === afterOps && !inWrite && !faulted) gap();
    const state = i === afterOps && faulted ? "fault" : i < afterOps || faulted ? "ran" : i === afterOps && inWrite ? "cut" : "not-run";
    const skipped = skippedOf(op);
    if (skipped !== undefined) {
      parts.push(`<g class="op gap ${state}" data-op-index="${i}" data-skipped="${skipped}">${text([`⋯ ${skipped} more call${skipped === 1 ? "" : "s"} ⋯`], TEXT_X, y + 14, "op-text")}</g>`);
      y += 22;
      return;
    }
    const lines = wrapText(op.bytes !== undefined ? `${op.what}, ${bytesWord(op.bytes)}` : op.what, TEXT_CHARS);
    const bar = state === "cut" ? 40 : state === "fault" ? faultHeight(picture) : 0;
    const height = 10 + lines.length * LINE + bar;
    parts.push(
      `<g class="op ${state}" data-op-index="${i}"${op.bytes !== undefined ? ` data-bytes="${op.bytes}"` : ""}>`,
      `<rect class="box" x="${BOX_X}" y="${y + 2}" width="${WIDTH - 4 - BOX_X}" height="${height}" rx="4"/>`,
      text([String(numbers[i])], BOX_X - 6, y + 17, "op-number", ' text-anchor="end"'),
      text(lines, TEXT_X, y + 17, "op-text"),
      state === "cut" ? writeBar(picture, op.bytes ?? 0, y + 10 + lines.length * LINE) : "",
      state === "fault" ? faultMark(picture, op.bytes ?? 0, y + 10 + lines.length * LINE) : "",
      "</g>",
    );
    y += height + 6;
  });
  if (afterOps >= picture.ops.length && !inWrite && !faulted) gap();
  const notRun = faulted ? 0 : picture.ops.length - afterOps - (inWrite ? 1 : 0);
  if (notRun > 0) {
    parts.push(text(["dashed: never ran (the crash came first)"], TEXT_X, y + 12, "legend"));
    y += 20;
  }
  parts.push(text([`The folder ${afterWords(how).toLowerCase()}:`], 4, y + 20, "pic-heading"));
  y += 30;
  if (picture.after.length === 0) {
    parts.push(text(["(no file)"], TEXT_X, y + 12, "file-size"));
    y += 20;
  }
  for (const file of picture.after) {
    const row = fileRow(file, y);
    parts.push(row.svg);
    y += row.height;
  }
  const height = Math.ceil(y + 4);
  return `<svg xmlns="http://www.w3.org/2000/svg" class="calls" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${esc(words)}"><title>${esc(words)}</title>${parts.join("")}</svg>`;
}
