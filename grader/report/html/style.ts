// The HTML report's one stylesheet, inline: light and dark colour schemes, a visible focus ring,
// and a layout that reads at 360 px as on a desktop. No font or image is loaded from anywhere.
// Each kind of picture but "calls" brings its own rules (html/svg-*.ts), appended here.
import { FOLDERS_STYLE } from "./folders.js";
import { DIFF_STYLE } from "./svg-diff.js";
import { LANES_STYLE } from "./svg-lanes.js";
import { RUNS_STYLE } from "./svg-runs.js";

/** The stylesheet's text (its hash is allowed by the page's Content-Security-Policy). */
export const STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #5b6370; --line: #d0d7de; --panel: #f6f8fa; --code: #eef1f4;
  --good: #116329; --good-bg: #dafbe1; --bad: #b3261e; --bad-bg: #ffe4e1; --warn: #7d4e00; --warn-bg: #fff1c2;
  --err: #8a2be2; --err-bg: #f1e4ff; --focus: #0a58ca; --op-bg: #ffffff;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1217; --fg: #e6e9ee; --muted: #9aa4b2; --line: #343b45; --panel: #161b22; --code: #1f252e;
    --good: #56d364; --good-bg: #12361e; --bad: #ff7b72; --bad-bg: #47191a; --warn: #e3b341; --warn-bg: #3b2e0a;
    --err: #d2a8ff; --err-bg: #2f1f47; --focus: #79c0ff; --op-bg: #0f1217;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
.page { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 0; }
code, pre, .id { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .875rem; }
a { color: var(--focus); }
a:focus-visible, summary:focus-visible, button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px; }
.meta, .note { color: var(--muted); margin: .25rem 0; }
.totals { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: .75rem 0; }
.total { font-size: 1.25rem; font-weight: 600; margin: 0; }
.partial { font-weight: 600; margin: .75rem 0; }
.warning { border-left: 4px solid var(--warn); background: var(--warn-bg); padding: .5rem .75rem; }
table.board { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; }
.board th, .board td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.board td.points, .board th.points { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.kind { color: var(--muted); font-size: .85rem; }
section.deliverable { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 1.25rem; background: var(--panel); }
.deliverable > header { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: .25rem 1rem; padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
.deliverable > .note { padding: .5rem 1rem 0; }
.checks { list-style: none; margin: 0; padding: .5rem; }
.checks > li { margin: .25rem 0; }
details.check { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; background: var(--bg); }
details.check[data-status="passed"] { border-left-color: var(--good); }
details.check[data-status="failed"] { border-left-color: var(--bad); }
details.check[data-status="blocked"] { border-left-color: var(--warn); border-left-style: dashed; }
details.check[data-status="error"] { border-left-color: var(--err); border-left-style: double; border-left-width: 6px; }
summary { cursor: pointer; padding: .5rem .75rem; display: grid; grid-template-columns: auto 1fr auto; gap: .1rem .6rem; align-items: baseline; }
summary::-webkit-details-marker { display: none; }
summary::marker { content: ""; }
summary .status { font-weight: 600; font-size: .85rem; white-space: nowrap; padding: 0 .4rem; border-radius: 1rem; }
summary .status::before { content: "▸ "; color: var(--muted); }
details[open] > summary .status::before { content: "▾ "; }
[data-status="passed"] .status { color: var(--good); background: var(--good-bg); }
[data-status="failed"] .status { color: var(--bad); background: var(--bad-bg); }
[data-status="blocked"] .status { color: var(--warn); background: var(--warn-bg); }
[data-status="error"] .status { color: var(--err); background: var(--err-bg); }
summary .what { min-width: 0; overflow-wrap: anywhere; }
summary .id { display: block; color: var(--muted); font-size: .8rem; }
summary .points { white-space: nowrap; font-variant-numeric: tabular-nums; font-weight: 600; }
.body { padding: 0 .75rem .75rem; min-width: 0; }
pre.story { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--code); border-radius: 6px; padding: .6rem .75rem; margin: .5rem 0; line-height: 1.45; }
.replay { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .6rem; margin: .5rem 0 0; }
.replay .label { color: var(--muted); font-size: .85rem; }
.replay code { flex: 1 1 16rem; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--code); border-radius: 6px; padding: .4rem .6rem; }
button.copy { font: inherit; font-size: .9rem; padding: .3rem .9rem; border-radius: 6px; border: 1px solid var(--line); background: var(--panel); color: var(--fg); cursor: pointer; }
button.copy:hover { border-color: var(--focus); }
.copied { color: var(--muted); font-size: .85rem; min-height: 1em; }
figure.picture { margin: .5rem 0; overflow-x: auto; }
/* On a phone a picture scrolls sideways in its figure rather than shrink its text below about 10 px. */
figure.picture > svg { min-width: 340px; }
figure.picture figcaption { color: var(--muted); font-size: .85rem; }
svg.calls { display: block; width: 100%; max-width: 440px; height: auto; }
svg.calls text { fill: var(--fg); font: 12px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
svg.calls .pic-call, svg.calls .pic-heading { font-weight: 700; }
svg.calls .op .box { fill: var(--op-bg); stroke: var(--muted); stroke-width: 1; }
svg.calls .op-number { fill: var(--muted); }
svg.calls .op.not-run .box { stroke-dasharray: 4 3; }
svg.calls .op.not-run text { fill: var(--muted); }
svg.calls .op.cut .box { stroke: var(--bad); stroke-width: 2; }
svg.calls .cut line { stroke: var(--bad); stroke-width: 2; stroke-dasharray: 6 3; }
svg.calls .cut-label { fill: var(--bad); font-weight: 700; }
svg.calls .cut-patch { fill: var(--bg); }
svg.calls .op.fault .box { stroke: var(--bad); stroke-width: 2; fill: var(--bad-bg); }
svg.calls .fault-mark line { stroke: var(--bad); stroke-width: 2; }
svg.calls .fault-label { fill: var(--bad); font-weight: 700; }
svg.calls .bar-bg { fill: var(--bg); stroke: var(--muted); }
svg.calls .bar-fill { fill: var(--bad); }
svg.calls .legend, svg.calls .file-size, svg.calls .bar-label { fill: var(--muted); }
svg.calls .file-icon { fill: none; stroke: var(--muted); }
svg.calls .badge rect { stroke: var(--muted); stroke-width: 1; }
svg.calls .holds-old .badge rect, svg.calls .holds-new .badge rect { fill: var(--good-bg); }
svg.calls .holds-torn .badge rect { fill: var(--bad-bg); stroke: var(--bad); }
svg.calls .holds-empty .badge rect, svg.calls .holds-other .badge rect { fill: var(--warn-bg); }
svg.calls .badge-label { font-weight: 700; }
.measurement { padding: 0 1rem 1rem; overflow-x: auto; }
.measurement table { border-collapse: collapse; }
.measurement th, .measurement td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid var(--line); }
footer { color: var(--muted); font-size: .85rem; margin: 1.5rem 0 1rem; }
@media (max-width: 30rem) {
  .page { padding: .6rem; }
  summary { grid-template-columns: 1fr auto; }
  summary .status { justify-self: start; }
  summary .what { grid-column: 1 / -1; grid-row: 2; }
  pre.story, .replay code { font-size: .8125rem; }
  .checks { padding: .35rem; }
}
${FOLDERS_STYLE}
${RUNS_STYLE}
${LANES_STYLE}
${DIFF_STYLE}
`;
