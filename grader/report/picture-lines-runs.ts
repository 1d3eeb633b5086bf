// The "runs" picture in the terminal: being written.
import type pc from "picocolors";
import type { RunsPicture } from "./picture-runs.js";

/** The picture's lines for a terminal `width` columns wide, indented by `indent`. */
export function runsLines(_picture: RunsPicture, _opts: { width: number; indent: number; c: ReturnType<typeof pc.createColors> }): string[] {
  return [];
}
