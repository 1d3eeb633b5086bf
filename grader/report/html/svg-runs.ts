// The "runs" picture as inline SVG: being written.
import type { RunsPicture } from "../picture-runs.js";

/** The picture as an inline SVG element, with its words as its text alternative. */
export function runsSvg(_picture: RunsPicture): string {
  return "";
}

/** The picture's rules in the page's one stylesheet (html/style.ts), under `svg.runs`, using its colour variables. */
export const RUNS_STYLE = ``;
