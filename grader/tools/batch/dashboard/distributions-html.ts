// The dashboard's score distributions: one histogram per total and per deliverable, each a table
// of bins (the points, a bar, how many students), so the numbers are read, not only the shapes.
import { esc } from "../../../report/html/escape.js";
import type { ClassSummary, Distribution } from "./class-summary.js";
import type { Bin } from "./histogram.js";
import { plural } from "./rows-html.js";

/** A bar of `value` out of `of`, as wide as its cell; its number is beside it, in the table. */
export function barSvg(value: number, of: number, cls = ""): string {
  const width = of > 0 ? Math.round((1000 * value) / of) / 10 : 0;
  return `<svg class="bar${cls ? ` ${cls}` : ""}" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="track" width="100" height="8"/><rect class="value" width="${width}" height="8"/></svg>`;
}

/** "0–3", "35 (full)", "7". */
export function binLabel(bin: Bin, max: number): string {
  if (bin.from === max) return `${max} (full)`;
  return bin.from === bin.to ? String(bin.from) : `${bin.from}–${bin.to}`;
}

function distributionFigure(d: Distribution): string {
  const h = d.histogram;
  const tallest = Math.max(1, ...h.bins.map((b) => b.count));
  const rows = h.bins
    .map((b) => `<tr data-bin="${b.from}-${b.to}" data-count="${b.count}"><th scope="row">${esc(binLabel(b, h.max))}</th><td class="bar-cell">${barSvg(b.count, tallest)}</td><td class="n">${b.count}</td></tr>`)
    .join("");
  const kind = d.total ? "" : ` <span class="kind">(${d.kind})</span>`;
  const stats = `${plural(h.count, "student")}, out of ${h.max}: median ${h.median}, mean ${h.mean}`;
  return `<figure class="distribution" id="dist-${esc(d.id)}" data-distribution="${esc(d.id)}" data-max="${h.max}">
<figcaption><h3>${esc(d.title)}${kind}</h3><p>${esc(stats)}</p></figcaption>
<table class="histogram"><thead><tr><th scope="col">points</th><td></td><th scope="col" class="n">students</th></tr></thead><tbody>${rows}</tbody></table>
</figure>`;
}

/** The section of score distributions: the totals, then each deliverable. */
export function distributionsSection(summary: ClassSummary): string {
  const body = summary.distributions.length === 0 ? '<p class="note">No submission was graded.</p>' : `<div class="distributions">${summary.distributions.map(distributionFigure).join("\n")}</div>`;
  return `<section id="scores" aria-labelledby="scores-title"><h2 id="scores-title">Scores</h2>
<p class="note">How many graded students scored how many points, in total and on each deliverable.</p>
${body}</section>`;
}
