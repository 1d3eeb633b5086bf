// A line of a terminal picture cut to the terminal's width, in columns as the terminal counts
// them (a wide character takes two), with "…" where it was cut.
import stringWidth from "string-width";

/** `text` cut to `width` columns, with "…" where it was cut. */
export function cut(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let out = "";
  for (const ch of text) {
    if (stringWidth(out + ch) > width - 1) break;
    out += ch;
  }
  // A text cut already (a story's "…") is not marked twice.
  return `${out.replace(/…$/, "")}…`;
}
