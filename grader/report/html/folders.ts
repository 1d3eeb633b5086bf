// The folder when the crashed call (or run) began and after the crash, side by side under a
// "calls" picture, or a "runs" picture whose crash was replayed from a trace: each file with its size, what it holds (a word on a badge) and a readable preview of
// its bytes. A torn file is shown where it tears: its last bytes, then the first bytes of what
// never reached it, marked by a dashed outline and the words "never written" (not by colour alone).
import type { Picture, PictureFile } from "../../contract/picture.js";
import { bytesWord, esc } from "./escape.js";
import { afterWords, HOLDS_LABEL } from "./picture-words.js";

/** One file: name, size, badge, and its preview when the picture has one. */
function fileItem(file: PictureFile): string {
  const preview = file.preview;
  const bytes = !preview
    ? ""
    : preview.missingBytes === undefined
      ? `<pre class="bytes">${esc(preview.text) || '<span class="none">(no bytes)</span>'}</pre>`
      : `<pre class="bytes torn">${esc(preview.text)}<span class="tear" aria-hidden="true">⟋</span><span class="missing" title="never written">${esc(preview.missingText ?? "")}</span></pre>` +
        `<p class="missing-note">The tear: the ${esc(bytesWord(preview.missingBytes))} after it never reached the file (shown dashed).</p>`;
  return [
    `<li class="file holds-${file.holds}" data-file="${esc(file.name)}" data-holds="${file.holds}" data-bytes="${file.bytes}">`,
    `<div class="file-head"><code class="name">${esc(file.name)}</code> <span class="size">${esc(bytesWord(file.bytes))}</span> <span class="holds">${esc(HOLDS_LABEL[file.holds])}</span></div>`,
    bytes,
    "</li>",
  ].join("");
}

/** One side: a heading and its files, or "(no file)". */
function folder(heading: string, files: PictureFile[], side: "before" | "after"): string {
  const items = files.length > 0 ? `<ul>${files.map(fileItem).join("")}</ul>` : '<p class="note">(no file)</p>';
  return `<div class="folder" data-folder="${side}"><h4>${esc(heading)}</h4>${items}</div>`;
}

/** Two folders side by side: before the crash and after it, each under its heading. */
export function foldersHtml(sides: { before: PictureFile[]; beforeHeading: string; after: PictureFile[]; afterHeading: string }): string {
  return `<div class="folders">${folder(sides.beforeHeading, sides.before, "before")}${folder(sides.afterHeading, sides.after, "after")}</div>`;
}

/** A picture's two folders: a "calls" picture's (none in an older report without `before`), a "runs" picture's when it has them, or "". */
export function pictureFoldersHtml(picture: Picture): string {
  if (picture.kind === "calls" && picture.before) return foldersHtml({ before: picture.before, beforeHeading: "When the call began", after: picture.after, afterHeading: afterWords(picture.cut.how) });
  if (picture.kind === "runs" && picture.folders) {
    const { run, before, after } = picture.folders;
    return foldersHtml({ before, beforeHeading: `When run ${run} started`, after, afterHeading: "After the crash" });
  }
  return "";
}

/** The folders' rules in the page's one stylesheet. */
export const FOLDERS_STYLE = `
.folders { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .5rem 1rem; margin: .5rem 0; }
.folder h4 { margin: .25rem 0; font-size: .9rem; }
.folder ul { list-style: none; margin: 0; padding: 0; }
.folder li.file { border: 1px solid var(--line); border-radius: 6px; padding: .35rem .5rem; margin: .3rem 0; background: var(--bg); }
.file-head { display: flex; flex-wrap: wrap; gap: .2rem .5rem; align-items: baseline; }
.file-head .name { overflow-wrap: anywhere; }
.file-head .size { color: var(--muted); font-size: .85rem; }
.file-head .holds { font-size: .8rem; font-weight: 700; padding: 0 .45rem; border-radius: 1rem; border: 1px solid var(--muted); }
.holds-old .holds, .holds-new .holds { background: var(--good-bg); }
.holds-torn .holds { background: var(--bad-bg); border-color: var(--bad); color: var(--bad); }
.holds-empty .holds, .holds-other .holds { background: var(--warn-bg); }
pre.bytes { margin: .3rem 0 0; padding: .3rem .45rem; background: var(--code); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .8rem; }
pre.bytes .none { color: var(--muted); }
pre.bytes .tear { color: var(--bad); font-weight: 700; padding: 0 .15rem; }
pre.bytes .missing { color: var(--muted); outline: 1px dashed var(--bad); outline-offset: 1px; }
.missing-note { margin: .2rem 0 0; font-size: .8rem; color: var(--muted); }
`;
