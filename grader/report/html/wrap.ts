// Text broken into lines of a few characters for the picture's SVG, which does not wrap text itself.

/**
 * `text` in lines of at most `width` characters, broken after ", ", before "(", after a space, "/" or
 * "-" where it can be, else anywhere; past `maxLines` lines the last one ends in "…".
 */
export function wrapText(text: string, width: number, maxLines = Infinity): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const head = rest.slice(0, width + 1);
    // The first of these breaks that leaves a line of more than a third of the width.
    const fits = (at: number) => at > width / 3 && at <= width;
    const cut = [head.lastIndexOf(", ") + 2, head.lastIndexOf("("), head.lastIndexOf(" ") + 1, head.lastIndexOf("/") + 1, head.lastIndexOf("-") + 1].find(fits) ?? width;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^ +/, "");
  }
  lines.push(rest);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, width - 1)}…`;
  return kept;
}
