// The words of a "diff" picture: what its SVG shows, said as sentences, for a screen reader (the
// SVG's text alternative) and for anyone the drawing does not reach.
import { answerOffRow, diffSpans, heldWords, pathText, stepsWord, type DiffPathEntry, type DiffPicture } from "../../contract/picture-diff.js";
import { capitalised } from "../words.js";

/** One path where the states differ, in words: `["v"] (left out by the answer): null in a, {} in b`. */
export function diffPathWords(entry: DiffPathEntry, picture: DiffPicture): string {
  const listed = entry.listed === undefined ? "" : entry.listed ? " (listed by the answer)" : " (left out by the answer)";
  return `${pathText(entry.path)}${listed}: ${heldWords(entry, picture)}`;
}

/** The whole picture in words: the histories, the steps they share, where they first diverge and how, and what the answer said. */
export function diffWords(picture: DiffPicture): string {
  const { a, b } = picture;
  const words = [`${picture.call} compared ${a.name} (${steps(a.steps)}) and ${b.name} (${steps(b.steps)}).`];
  const same = diffSpans(picture).find((s) => "from" in s && s.same && s.from === 1);
  if (same && "from" in same) words.push(`${capitalised(stepsWord(same.from, same.to))} ${same.from === same.to ? "is" : "are"} the same in both.`);
  if (picture.step === null) words.push("They are the same at every step (key order aside).");
  else {
    const paths = picture.paths.map((p) => diffPathWords(p, picture));
    if (picture.morePaths > 0) paths.push(`and ${picture.morePaths} more paths`);
    words.push(`They first diverge at step ${picture.step}, where the states differ at: ${paths.join("; ")}.`);
  }
  const answer = picture.answer;
  if (answer) {
    words.push(`${picture.call} ${answerOffRow(picture) || answer.said}.`);
    if (answer.extra?.length) words.push(`It also returned ${answer.extra.map(pathText).join(", ")}, where the states do not differ.`);
  }
  return words.join(" ");
}

function steps(n: number): string {
  return `${n} step${n === 1 ? "" : "s"}`;
}
