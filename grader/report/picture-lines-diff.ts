// The "diff" picture in the terminal: being written.
import type pc from "picocolors";
import type { DiffPicture } from "./picture-diff.js";

/** The picture's lines for a terminal `width` columns wide, indented by `indent`. */
export function diffLines(_picture: DiffPicture, _opts: { width: number; indent: number; c: ReturnType<typeof pc.createColors> }): string[] {
  return [];
}
