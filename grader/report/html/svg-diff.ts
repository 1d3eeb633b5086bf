// The "diff" picture as inline SVG: being written.
import type { DiffPicture } from "../picture-diff.js";

/** The picture as an inline SVG element, with its words as its text alternative. */
export function diffSvg(_picture: DiffPicture): string {
  return "";
}

/** The picture's rules in the page's one stylesheet (html/style.ts), under `svg.diff`, using its colour variables. */
export const DIFF_STYLE = ``;
