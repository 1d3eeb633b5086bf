// The words of a failure's picture: what the SVG shows, said as a sentence, for a screen reader
// (the SVG's text alternative) and for anyone the drawing does not reach; and the labels the
// drawing and the words share.
import { opNumbers, type CallsPicture, type PictureFile } from "../../contract/picture.js";
import { bytesWord } from "./escape.js";

/** How the picture labels what a file holds: a word on the drawing, never colour alone. */
export const HOLDS_LABEL: Record<PictureFile["holds"], string> = { old: "old", new: "new", torn: "torn", empty: "empty", other: "other" };

const HOLDS_WORDS: Record<PictureFile["holds"], string> = { old: "the old state", new: "the new state", torn: "torn: the beginning of a state", empty: "empty", other: "something else" };

/** Calls a picture left out between two it shows ("12 more calls"), when the op is such a gap; else undefined. */
export function skippedOf(op: CallsPicture["ops"][number]): number | undefined {
  return op.skipped !== undefined && op.skipped > 0 ? op.skipped : undefined;
}

/** One op as the words name it: "2. writeSync(\"checkpoint.json\"), 10 bytes", or "(12 more calls)". */
export function opWords(op: CallsPicture["ops"][number], n: number): string {
  const skipped = skippedOf(op);
  if (skipped !== undefined) return `(${skipped} more call${skipped === 1 ? "" : "s"}, ${n} to ${n + skipped - 1})`;
  return `${n}. ${op.what}${op.bytes !== undefined ? `, ${bytesWord(op.bytes)}` : ""}`;
}

/** What the folder after the crash (or the fault) is called: "After the crash", "After the power cut", "After the call". */
export function afterWords(how: CallsPicture["cut"]["how"]): string {
  return { killed: "After the crash", "power cut": "After the power cut", fault: "After the call" }[how];
}

/** What the disk did to the faulted call, as the picture labels it: "ENOSPC: 4 of 10 bytes written", or "EIO: this call failed". */
export function faultLabel(picture: CallsPicture): string {
  const { cut } = picture;
  if (cut.written === undefined) return `${cut.fault}: this call failed`;
  return `${cut.fault}: ${cut.written} of ${bytesWord(picture.ops[cut.afterOps]?.bytes ?? 0)} written`;
}

/**
 * Where the crash fell, as a sentence: "The process was killed after call 2 (...) and before call 3 (...)."
 * A fault: "The disk said no at call 2 (...): ENOSPC: 0 of 10 bytes written. The calls after it ran."
 */
export function cutWords(picture: CallsPicture): string {
  const { ops, cut } = picture;
  const numbers = opNumbers(picture);
  const named = (i: number) => `call ${numbers[i]} (${ops[i]!.what || opWords(ops[i]!, numbers[i]!)})`;
  if (cut.how === "fault") return `The disk said no at ${named(cut.afterOps)}: ${faultLabel(picture)}.${cut.afterOps + 1 < ops.length ? " The calls after it ran." : ""}`;
  const who = cut.how === "killed" ? "The process was killed" : "The power was cut";
  const inside = ops[cut.afterOps];
  if (cut.written !== undefined && inside) return `${who} inside ${named(cut.afterOps)}, a write, after ${cut.written} of its ${bytesWord(inside.bytes ?? 0)} reached the file.`;
  if (cut.afterOps <= 0) return `${who} before its first file-system call.`;
  if (cut.afterOps >= ops.length) return `${who} after its last file-system call, before it returned.`;
  return `${who} after ${named(cut.afterOps - 1)} and before ${named(cut.afterOps)}.`;
}

/** One file after the crash: "checkpoint.json, 10 bytes, the old state". */
export function fileWords(file: PictureFile): string {
  return `${file.name}, ${bytesWord(file.bytes)}, ${HOLDS_WORDS[file.holds]}`;
}

/** The whole picture in words: the call, its calls in order, where the crash (or the fault) fell, and the folder after it. */
export function pictureWords(picture: CallsPicture): string {
  const numbers = opNumbers(picture);
  const calls = picture.ops.map((op, i) => opWords(op, numbers[i]!)).join("; ");
  const after = afterWords(picture.cut.how);
  const files = picture.after.length === 0 ? `${after} the folder held no file.` : `${after} the folder held: ${picture.after.map(fileWords).join("; ")}.`;
  return `${picture.call} made these file-system calls, in order: ${calls}. ${cutWords(picture)} ${files}`;
}
