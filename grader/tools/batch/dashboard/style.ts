// The class dashboard's own rules, appended to the HTML report's stylesheet (report/html/style.ts),
// whose colours (light and dark), type, focus ring, check rows and pictures it shares. Bars are
// SVG rectangles sized by attributes: the page's Content-Security-Policy allows no style attribute.
import { STYLE } from "../../../report/html/style.js";

/** The dashboard's whole stylesheet: the report's, then its own rules. */
export const DASHBOARD_STYLE = `${STYLE}
.page { max-width: 72rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1.05rem; margin: 0; }
.figures { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin: .75rem 0; padding: 0; list-style: none; }
.figures li { border: 1px solid var(--line); border-radius: 8px; padding: .4rem .8rem; background: var(--panel); }
.figures .n { font-size: 1.35rem; font-weight: 700; font-variant-numeric: tabular-nums; margin-right: .3rem; }
.figures .error .n { color: var(--err); }
nav.sections ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: .5rem 0; }
.distributions { display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: 1rem; }
figure.distribution { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: .75rem; background: var(--panel); min-width: 0; }
figure.distribution figcaption p { margin: .15rem 0 .4rem; color: var(--muted); font-size: .9rem; }
table.histogram, table.rates, table.rows { border-collapse: collapse; width: 100%; }
.histogram th, .histogram td { padding: .1rem .35rem; font-variant-numeric: tabular-nums; border-bottom: 1px solid var(--line); }
.histogram th[scope="row"] { text-align: right; font-weight: 400; white-space: nowrap; width: 5.5rem; }
.histogram td.n { text-align: right; width: 3.5rem; font-variant-numeric: tabular-nums; }
.rates td.n { text-align: right; white-space: nowrap; }
.histogram thead th { font-size: .8rem; color: var(--muted); font-weight: 600; text-align: left; }
.histogram thead th.n { text-align: right; }
td.bar-cell { width: 100%; min-width: 4rem; }
svg.bar { display: block; width: 100%; height: .8rem; }
svg.bar .track { fill: var(--code); }
svg.bar .value { fill: var(--focus); }
svg.bar.rate .value { fill: var(--good); }
svg.bar.rate .lost { fill: var(--bad-bg); }
.rates th, .rates td, .rows th, .rows td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.rates .id, .check-losses .id { display: block; color: var(--muted); font-size: .8rem; overflow-wrap: anywhere; }
.rates td.rate { min-width: 9rem; }
.rates .rate-words { white-space: nowrap; font-variant-numeric: tabular-nums; }
.rates .lost-words { color: var(--muted); font-size: .9rem; }
section.check-losses { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 1.25rem; background: var(--panel); }
.check-losses > header { padding: .75rem 1rem .25rem; }
.check-losses > header p { margin: .25rem 0 0; color: var(--muted); }
ul.groups { list-style: none; margin: 0; padding: .5rem; }
ul.groups > li { margin: .3rem 0; }
details.group { border: 1px solid var(--line); border-left: 4px solid var(--bad); border-radius: 6px; background: var(--bg); }
details.group[data-status="blocked"] { border-left-color: var(--warn); border-left-style: dashed; }
details.group[data-status="error"] { border-left-color: var(--err); border-left-style: double; border-left-width: 6px; }
details.group summary { grid-template-columns: 8.5rem 1fr; }
details.group summary .status { justify-self: start; }
.group .outcome { font-weight: 600; overflow-wrap: anywhere; }
.group .place { display: block; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.group .who { margin: .25rem 0 .5rem; overflow-wrap: anywhere; }
.group .who a { white-space: nowrap; }
.rows td { overflow-wrap: anywhere; }
.rows td:first-child { white-space: nowrap; }
@media (max-width: 30rem) {
  .distributions { grid-template-columns: 1fr; }
  .rates thead { display: none; }
  .rates tr { display: block; border-bottom: 1px solid var(--line); padding: .35rem 0; }
  .rates td { display: block; border: 0; padding: .1rem .25rem; }
  .rates td.n { width: auto; text-align: left; color: var(--muted); }
  ul.groups { padding: .25rem; }
  .group .body { padding: 0 .4rem .5rem; }
  details.group summary { grid-template-columns: 1fr; }
  .rows td:first-child { white-space: normal; }
}
`;
