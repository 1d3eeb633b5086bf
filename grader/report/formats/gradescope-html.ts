// A failed check's output for Gradescope in its "html" output format, when the check has a
// picture: the picture as an <img> of a standalone SVG (a data: URI, so the page loads nothing),
// with the picture's words as its alt text, then the story in a <pre> and the replay command.
// Gradescope sanitizes HTML output; should it drop the image, the story and command remain.
import type { CheckReport } from "../report.js";
import { esc } from "../html/escape.js";
import { commandTitle } from "../words.js";
import { pictureAltText } from "../html/picture-svg.js";
import { standaloneSvg } from "../html/standalone-svg.js";

/** The check's output as HTML: its picture, story and replay command; every text escaped. */
export function gradescopeHtmlOutput(check: CheckReport): string {
  const parts: string[] = [];
  if (check.picture) {
    const svg = standaloneSvg(check.picture);
    const size = /width="(\d+)" height="(\d+)"/.exec(svg);
    const dims = size ? ` width="${size[1]}" height="${size[2]}"` : "";
    parts.push(`<p><img alt="${esc(pictureAltText(check.picture))}"${dims} src="data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}"></p>`);
  }
  if (check.message) parts.push(`<pre>${esc(check.message)}</pre>`);
  if (check.replay) parts.push(`<p>${commandTitle(check.replay)}: <code>${esc(check.replay)}</code></p>`);
  return parts.join("\n");
}
