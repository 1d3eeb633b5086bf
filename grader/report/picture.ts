// What a failure looked like, as data a picture is drawn from: the terminal draws it as a few
// lines above the story (picture-lines.ts), the HTML report as inline SVG (html/picture-svg.ts). It says
// nothing the story does not: each picture is made from the same record as its failure's story.
// Both drawings number the calls with opNumbers. Each kind of picture is its own file: the
// data here (picture-<kind>.ts), the terminal's drawing (picture-lines*.ts), the SVG (html/svg-*.ts).
import type { DiffPicture } from "./picture-diff.js";
import type { LanesPicture } from "./picture-lanes.js";
import type { RunsPicture } from "./picture-runs.js";

export type { DiffPicture, LanesPicture, RunsPicture };

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
   * many calls it stands for) and an empty `what`.
   */
  ops: { what: string; bytes?: number; skipped?: number }[];
  /**
   * Where the crash fell: after the first `afterOps` calls (0: before the first). When `written`
   * is set, inside call `afterOps + 1` (a write), after `written` of its `bytes` reached the file.
   * `how`: the process was killed, or the power was cut; or, with "fault", the disk said no at
   * call `afterOps + 1` (`fault`: "ENOSPC", "EIO", "short write"; `written`: how many of a
   * write's bytes it wrote) and the process went on: the calls after it ran.
   */
  cut: { afterOps: number; written?: number; how: "killed" | "power cut" | "fault"; fault?: string };
  /** The folder after the crash (after a fault, after the call): each file, its size, and what it holds. */
  after: PictureFile[];
  /** The folder when the call began, drawn beside `after` in the HTML report. */
  before?: PictureFile[];
}

export interface PictureFile {
  /** As the story names it: "checkpoint.json", ".checkpoint.json.*.tmp". */
  name: string;
  bytes: number;
  /** The old state, the new state, a part of one (torn), nothing, or anything else. */
  holds: "old" | "new" | "torn" | "empty" | "other";
  /** Its first bytes, readable (previewText), and for a torn file the first bytes of what never reached it. */
  preview?: FilePreview;
}

/**
 * A readable look at a file's bytes (previewText): its first PREVIEW_BYTES. A torn file is seen
 * where it tears: its last bytes before the tear, then the first bytes of what never reached it.
 */
export interface FilePreview {
  /** The bytes shown; a torn file's may start with "…" (its beginning left out). */
  text: string;
  /** A torn file: the state it is the beginning of goes on for this many bytes, never written ... */
  missingBytes?: number;
  /** ... which begin with these. */
  missingText?: string;
}

/** How many bytes of a file a preview shows, at most; a torn file shows up to half as many on each side of the tear. */
export const PREVIEW_BYTES = 96;

/**
 * `bytes` as readable text: UTF-8 as the characters it encodes, with \\, \n and \t escaped, and
 * anything else (a control character, a byte that is not part of a whole UTF-8 character, as at
 * a tear) as \xNN.
 */
export function previewText(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const length = b >= 0xf0 && b < 0xf8 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    const char = length > 1 ? wholeCharacter(bytes.subarray(i, i + length), length) : null;
    if (char !== null) {
      out += char;
      i += length;
      continue;
    }
    if (b === 0x0a) out += "\\n";
    else if (b === 0x09) out += "\\t";
    else if (b === 0x5c) out += "\\\\";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, "0")}`;
    i++;
  }
  return out;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The one printable character `bytes` encode in UTF-8 (all `length` of them), or null. */
function wholeCharacter(bytes: Uint8Array, length: number): string | null {
  if (bytes.length < length) return null;
  try {
    const char = UTF8.decode(bytes);
    // A control or formatting character (a direction mark, say) would be invisible or move the text: it shows as bytes.
    return /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u.test(char) ? char : null;
  } catch {
    return null;
  }
}

/** The preview of a file holding `data`; of a torn one when `whole` is the state it is the beginning of. */
export function filePreview(data: Uint8Array, whole?: Uint8Array): FilePreview {
  if (!whole) return { text: previewText(data.subarray(0, PREVIEW_BYTES)) + (data.length > PREVIEW_BYTES ? "…" : "") };
  const side = PREVIEW_BYTES / 2;
  const missing = whole.subarray(data.length);
  return {
    text: (data.length > side ? "…" : "") + previewText(data.subarray(Math.max(0, data.length - side))),
    missingBytes: missing.length,
    missingText: previewText(missing.subarray(0, side)) + (missing.length > side ? "…" : ""),
  };
}

/** Each op's number among the call's file-system calls (1 for the first), counting the calls a gap before it stands for; a gap gets the number of its first call. */
export function opNumbers(picture: Pick<CallsPicture, "ops">): number[] {
  let next = 1;
  return picture.ops.map((op) => {
    const n = next;
    next += op.skipped || 1;
    return n;
  });
}
