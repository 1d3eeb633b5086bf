// What every picture's SVG writes text with: 12 px monospace text (its font is in the page's
// stylesheet), a character's width and a line's height, and a <text> of several lines.
import { esc } from "./escape.js";

/** The width of one character of the pictures' 12 px monospace text, in px. */
export const CH = 7.2;
/** The height of one line of it, in px. */
export const LINE = 16;

/** A <text> at (x, y) of class `cls`, each of `lines` one line down; `extra` adds attributes. */
export function svgText(lines: string[], x: number, y: number, cls: string, extra = ""): string {
  const spans = lines.map((l, i) => `<tspan x="${x}" dy="${i === 0 ? 0 : LINE}">${esc(l)}</tspan>`).join("");
  return `<text class="${cls}" x="${x}" y="${y}"${extra}>${spans}</text>`;
}
