// The "lanes" picture as inline SVG: being written.
import type { LanesPicture } from "../picture-lanes.js";

/** The picture as an inline SVG element, with its words as its text alternative. */
export function lanesSvg(_picture: LanesPicture): string {
  return "";
}

/** The picture's rules in the page's one stylesheet (html/style.ts), under `svg.lanes`, using its colour variables. */
export const LANES_STYLE = ``;
