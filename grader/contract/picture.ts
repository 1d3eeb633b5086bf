// What a failure looked like, as data a picture is drawn from: the terminal draws it as a few
// lines above the story (picture-lines.ts), the HTML report as inline SVG (html/picture-svg.ts). It says
// nothing the story does not: each picture is made from the same record as its failure's story.
// Both drawings number the calls with opNumbers. Each kind of picture is its own file: the
// data here (picture-<kind>.ts), the terminal's drawing (picture-lines*.ts), the SVG (html/svg-*.ts).
import type { DiffPicture } from "./picture-diff.js";
import type { LanesPicture } from "./picture-lanes.js";
import type { RunsPicture } from "./picture-runs.js";
import type { PictureFile } from "./picture-file.js";

export type { DiffPicture, LanesPicture, RunsPicture };
export { filePreview, PREVIEW_BYTES, previewText, showsPreview, type FilePreview, type PictureFile } from "./picture-file.js";

/**
 * A failure's picture: a call cut among its file-system calls (Phase 1, power loss), runs of a
 * task killed at a step (Phase 2, Phase 3, stretch-git), writers and a reader in lanes
 * (concurrency), or two histories side by side (stretch-diff).
 */
export type Picture = CallsPicture | RunsPicture | LanesPicture | DiffPicture;

/**
 * One call of the target crashed among its file-system calls (phase1.crash-safety, stale-temp,
 * power-loss), or met a disk that said no at one of them (disk-faults): the calls in the order
 * they ran, where the crash or the fault fell, and the folder after it.
 */
export interface CallsPicture {
  kind: "calls";
  /** The call that crashed, as the story names it: "atomicCheckpoint(path, {\"step\":2})". */
  call: string;
  /**
   * Its file-system calls in the order they ran, as the story names them: "openSync(\".checkpoint.json.*.tmp\")";
   * `bytes` for a write. A long run of calls far from the crash is one entry with `skipped` (how
   * many calls it stands for) and an empty `what`. `kind` and `touched` are the same call as data
   * (crash/describe.ts's opFacts): the kind of call ("open", "rename") and the file it touched as
   * `what` names it, unquoted ("the folder" for the checkpoint's folder).
   */
  ops: { what: string; bytes?: number; skipped?: number; kind?: string; touched?: string }[];
  /**
   * Where the crash fell: after the first `afterOps` calls (0: before the first). When `written`
   * is set, inside call `afterOps + 1` (a write), after `written` of its `bytes` reached the file.
   * `how`: the process was killed, or the power was cut; or, with "fault", the disk said no at
   * call `afterOps + 1` (`fault`: "ENOSPC", "EIO", "short write"; `written`: how many of a
   * write's bytes it wrote) and the process went on: the calls after it ran.
   */
  cut: { afterOps: number; written?: number; how: "killed" | "power cut" | "fault"; fault?: string; missing?: MissingStep };
  /** The folder after the crash (after a fault, after the call): each file, its size, and what it holds. */
  after: PictureFile[];
  /** The folder when the call began, drawn beside `after` in the HTML report. */
  before?: PictureFile[];
}

/**
 * For a power cut that lost the new state, the step the write is missing, as its story tells it
 * first: the renamed file's data was never fsynced before the rename ("data"; "data-flush-ignored"
 * when writeFileSync was asked to flush it and this Node ignored that), or the folder was not
 * fsynced after the rename ("folder").
 */
export type MissingStep = "data" | "data-flush-ignored" | "folder";

/** Each op's number among the call's file-system calls (1 for the first), counting the calls a gap before it stands for; a gap gets the number of its first call. */
export function opNumbers(picture: Pick<CallsPicture, "ops">): number[] {
  let next = 1;
  return picture.ops.map((op) => {
    const n = next;
    next += op.skipped || 1;
    return n;
  });
}
