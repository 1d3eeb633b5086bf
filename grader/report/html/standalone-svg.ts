// A failure's picture as an SVG that stands alone (for an <img> on a page that is not ours, as
// Gradescope's test output): the drawing with its own stylesheet inside it, the page's rules for
// pictures in the light colour scheme on a background of its own, so it reads the same on any page.
import type { Picture } from "../../contract/picture.js";
import { pictureSvg } from "./picture-svg.js";
import { STYLE } from "./style.js";

/** The page stylesheet's top-level blocks: a selector (or at-rule) and its body. */
function blocks(css: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    if (css[i] === "{") depth++;
    else if (css[i] === "}" && --depth === 0) {
      out.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return out;
}

/** The rules a picture needs: the light scheme's colours (on the <svg> itself) and every rule for an svg. */
const PICTURE_STYLE = [
  ...blocks(STYLE)
    .filter((b) => b.startsWith(":root"))
    .map((b) => b.replace(/^:root/, "svg").replace(/color-scheme:[^;]*;/, "")),
  "svg { background: var(--bg); }",
  ...blocks(STYLE).filter((b) => /^svg[.\s]/.test(b)),
].join("\n");

/** The picture as a standalone SVG document, its stylesheet inside it. */
export function standaloneSvg(picture: Picture): string {
  const svg = pictureSvg(picture);
  const opened = svg.indexOf(">") + 1;
  return `${svg.slice(0, opened)}<style>${PICTURE_STYLE}</style>${svg.slice(opened)}`;
}
