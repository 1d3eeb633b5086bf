// The "lanes" picture in the terminal: being written.
import type pc from "picocolors";
import type { LanesPicture } from "./picture-lanes.js";

/** The picture's lines for a terminal `width` columns wide, indented by `indent`. */
export function lanesLines(_picture: LanesPicture, _opts: { width: number; indent: number; c: ReturnType<typeof pc.createColors> }): string[] {
  return [];
}
