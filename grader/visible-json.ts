// JSON text as a story shows it: a character a terminal draws as a plain space, or not at all (a
// no-break space, a zero-width space, a line separator, a byte order mark), is written as its
// \u escape, so that a state holding one never reads like a state that does not. The text is
// still JSON, and means the same value.

/** Spaces other than " " (which the lookahead leaves), line and paragraph separators, and invisible format characters. */
const UNSEEN = /(?! )[\p{Zs}\p{Zl}\p{Zp}\p{Cf}]/gu;

/** `text` (JSON) with each character a reader cannot see escaped ("\u00a0"); a plain space stays. */
export function visibleJson(text: string): string {
  return text.replace(UNSEEN, (c) => [...c].map(escapeUnits).join(""));
}

/** "\uXXXX" for each UTF-16 unit of one character (two, a surrogate pair, above U+FFFF). */
function escapeUnits(c: string): string {
  return Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");
}
