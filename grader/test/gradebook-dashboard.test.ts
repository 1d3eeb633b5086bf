// The class dashboard's numbers and page from synthetic rows: the histograms' bins, who counts as
// graded, each check's pass rate and its groups of failures, the modified and error rows, and the
// page that shows them (escaped, self-contained) written beside the CSV by writeGradebook.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import type { CheckReport, DeliverableReport, Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { classSummary } from "../tools/batch/dashboard/class-summary.js";
import { histogram } from "../tools/batch/dashboard/histogram.js";
import { renderDashboard } from "../tools/batch/dashboard/render.js";
import { gradebookPaths, readGradebook, writeGradebook } from "../tools/batch/gradebook-files.js";
import type { Row } from "../tools/batch/gradebook.js";

const rubric = loadRubric();
const AT = new Date("2026-03-01T14:05:00Z");

/** A check of `status` worth `max` (earning it when passed), with a story. */
function check(id: string, status: CheckReport["status"], message?: string, max = 8, outcome?: string): CheckReport {
  return { id, title: `title of ${id}`, status, points: status === "passed" ? max : 0, maxPoints: max, crashStates: 0, ...(message ? { message } : {}), ...(outcome ? { cause: { outcome } } : {}) };
}

/** A deliverable of these checks, its points theirs. */
function deliverable(id: string, kind: "core" | "bonus", checks: CheckReport[]): DeliverableReport {
  return { id, title: `Title ${id}`, kind, status: "graded", points: checks.reduce((n, c) => n + c.points, 0), maxPoints: checks.reduce((n, c) => n + c.maxPoints, 0), checks };
}

/** A report of these deliverables, its totals theirs. */
function report(deliverables: DeliverableReport[]): Report {
  const sum = (kind: string, f: (d: DeliverableReport) => number) => deliverables.filter((d) => d.kind === kind).reduce((n, d) => n + f(d), 0);
  return { schemaVersion: 6, target: "x", seed: 7, score: sum("core", (d) => d.points), maxScore: sum("core", (d) => d.maxPoints), bonus: sum("bonus", (d) => d.points), maxBonus: sum("bonus", (d) => d.maxPoints), deliverables, stats: { crashStates: 0, durationMs: 1 } };
}

const NULL_STORY = (n: number) => `Wrote ${n}, then {}, loading after each write.\nloadCheckpoint returned null; expected the second state written {}`;
const EXDEV = "Wrote null.\natomicCheckpoint(path, null) threw Error (EXDEV): EXDEV: cross-device link not permitted, rename '$TMPDIR/x' -> 'checkpoint.json'";

/** A class of five: three graded (the first loses round-trip one way, the next two another way), an error row with a report, one without. */
function classRows(): Row[] {
  const graded = (submission: string, roundTrip: CheckReport, absent: CheckReport, bonus: CheckReport): Row => ({
    submission,
    report: report([deliverable("phase1", "core", [roundTrip, absent]), deliverable("phase2", "core", [check("phase2.complete-run", "passed")]), deliverable("stretch-diff", "bonus", [bonus])]),
    modified: [],
    reportPath: `grades-reports/${submission}.json`,
  });
  return [
    graded("ada", check("phase1.round-trip", "failed", EXDEV, 8, "atomicCheckpoint threw Error (EXDEV)"), check("phase1.absent", "passed", undefined, 4), check("stretch-diff.first-step", "passed", undefined, 4)),
    graded("bob", check("phase1.round-trip", "failed", NULL_STORY(12345), 8, "loadCheckpoint returned null"), check("phase1.absent", "failed", "Called loadCheckpoint.\nloadCheckpoint returned undefined; expected null", 4, "loadCheckpoint returned undefined"), check("stretch-diff.first-step", "failed", "firstDivergence(a, b) returned step 4; expected step 3", 4, "firstDivergence returned a later step")),
    { ...graded("cy", check("phase1.round-trip", "failed", NULL_STORY(7), 8, "loadCheckpoint returned null"), check("phase1.absent", "passed", undefined, 4), check("stretch-diff.first-step", "passed", undefined, 4)), modified: ["grader/rubric.json", "lab/x.ts (added)"] },
    { submission: "dee", report: report([deliverable("phase1", "core", [check("phase1.round-trip", "error", "the grader could not run this check: boom", 8, "the grader could not run it: boom")])]), error: "the grader could not run phase1.round-trip: boom", modified: [], reportPath: "grades-reports/dee.json" },
    { submission: "eve", report: null, error: "no starter/ folder and no checkpoint.ts", modified: [] },
  ];
}

describe("the dashboard's numbers", () => {
  test("a histogram has about ten bins of equal width from 0 and full marks alone, with each score in its bin", () => {
    const h = histogram([0, 3, 4, 34, 35, 35, 20], 35);
    expect(h.bins.map((b) => `${b.from}-${b.to}:${b.count}`)).toEqual(["0-3:2", "4-7:1", "8-11:0", "12-15:0", "16-19:0", "20-23:1", "24-27:0", "28-31:0", "32-34:1", "35-35:2"]);
    expect([h.count, h.median, h.mean]).toEqual([7, 20, 18.7]);
    expect(histogram([1, 2, 10], 10).bins.map((b) => b.count)).toEqual([0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(histogram([0, 0], 0).bins).toEqual([{ from: 0, to: 0, count: 2 }]);
    expect(histogram([1, 2, 3, 4], 4).median).toBe(2.5);
  });

  test("only graded rows count: the error rows are listed with why, the modified clones with their files", () => {
    const s = classSummary(rubric, classRows(), AT);
    expect([s.students, s.graded, s.errors, s.gradedAt, s.seeds]).toEqual([5, 3, 2, "2026-03-01T14:05:00.000Z", [7]]);
    expect(s.rubricMax).toEqual({ core: 100, bonus: 50 });
    expect(s.errorRows).toEqual([
      { submission: "dee", reportPath: "grades-reports/dee.json", error: "the grader could not run phase1.round-trip: boom" },
      { submission: "eve", error: "no starter/ folder and no checkpoint.ts" },
    ]);
    expect(s.modified).toEqual([{ submission: "cy", reportPath: "grades-reports/cy.json", files: ["grader/rubric.json", "lab/x.ts (added)"] }]);
  });

  test("each check's pass rate, the most often lost first, with its failures grouped by kind, the largest group first, its example the shortest story", () => {
    const s = classSummary(rubric, classRows(), AT);
    expect(s.checks.map((c) => [c.id, c.passed, c.graded, c.failed])).toEqual([
      ["phase1.round-trip", 0, 3, 3],
      ["phase1.absent", 2, 3, 1],
      ["stretch-diff.first-step", 2, 3, 1],
      ["phase2.complete-run", 3, 3, 0],
    ]);
    const roundTrip = s.checks[0]!;
    expect(roundTrip.groups.map((g) => [g.kind.outcome, g.students.map((x) => x.submission)])).toEqual([
      ["loadCheckpoint returned null", ["bob", "cy"]],
      ["atomicCheckpoint threw Error (EXDEV)", ["ada"]],
    ]);
    expect(roundTrip.groups[0]!.example.submission).toBe("cy");
    expect(roundTrip.groups[0]!.students[1]).toEqual({ submission: "cy", reportPath: "grades-reports/cy.json" });
  });

  test("the distributions: core and bonus totals, then each deliverable graded, out of the most it was graded out of; a total of one deliverable is left out", () => {
    const s = classSummary(rubric, classRows(), AT);
    expect(s.distributions.map((d) => [d.id, d.histogram.max, d.histogram.count, d.histogram.median])).toEqual([
      ["core", 20, 3, 12],
      ["phase1", 12, 3, 4],
      ["phase2", 8, 3, 8],
      ["stretch-diff", 4, 3, 4],
    ]);
    expect(classSummary(rubric, [], AT).distributions).toEqual([]);
  });
});

describe("the dashboard's page", () => {
  /** The values of `attribute` in `html`, in order, on elements whose tag is `tag`. */
  const attributes = (html: string, tag: string, attribute: string) => [...html.matchAll(new RegExp(`<${tag}\\b[^>]*\\b${attribute}="([^"]*)"`, "g"))].map((m) => m[1]);

  test("shows the header's counts, each bin's count, each check's pass rate and each group's size and students, with names linking to their reports", () => {
    const html = renderDashboard(classSummary(rubric, classRows(), AT));
    expect(html).toMatch(/<li data-figure="students"><span class="n">5<\/span>students<\/li><li data-figure="graded"><span class="n">3<\/span>graded<\/li><li data-figure="errors" class="error"><span class="n">2<\/span>errors<\/li>/);
    expect(html).toContain('<time datetime="2026-03-01T14:05:00.000Z">2026-03-01 14:05 UTC</time>, seed 7.');
    expect(attributes(html, "figure", "data-distribution")).toEqual(["core", "phase1", "phase2", "stretch-diff"]);
    // Core scores 12, 8 and 12 out of 20, in bins of 2.
    expect(attributes(html, "tr", "data-count").slice(0, 11)).toEqual(["0", "0", "0", "0", "1", "0", "2", "0", "0", "0", "0"]);
    expect(html).toContain('<td class="rate"><span class="rate-words">0 of 3 passed (0%)</span>');
    // How a check was lost is said only when not every student lost it by failing it.
    expect(html).toMatch(/data-check="phase1.round-trip".*?<td class="lost-words">lost by 3<\/td>/);
    expect(html).toMatch(/data-check="phase2.complete-run".*?<td class="lost-words">lost by none<\/td>/);
    const waiting = classRows();
    waiting[1]!.report!.deliverables[0]!.checks[1] = check("phase1.absent", "blocked", "Scored only once phase1.round-trip passes; fix that first.", 4);
    waiting[0]!.report!.deliverables[0]!.checks[1] = check("phase1.absent", "failed", "Called loadCheckpoint.\nloadCheckpoint returned undefined; expected null", 4);
    expect(renderDashboard(classSummary(rubric, waiting, AT))).toMatch(/data-check="phase1.absent".*?<td class="lost-words">lost by 2: 1 failed, 1 waits on another check<\/td>/);
    expect(attributes(html, "tr", "data-check")).toEqual(["phase1.round-trip", "phase1.absent", "stretch-diff.first-step", "phase2.complete-run"]);
    expect(attributes(html, "details", "data-students")).toEqual(["2", "1", "1", "1"]);
    expect(html).toContain('<p class="who"><a href="grades-reports/bob.json" data-submission="bob">bob</a>, <a href="grades-reports/cy.json" data-submission="cy">cy</a></p>');
    expect(html).toContain('<tr data-row="eve"><td><span data-submission="eve">eve</span></td><td>no starter/ folder and no checkpoint.ts</td></tr>');
    expect(html).toContain("<code>grader/rubric.json</code>, <code>lab/x.ts (added)</code>");
  });

  test("escapes every text from a report, runs no script and loads nothing: its one stylesheet is allowed by hash", () => {
    const rows = classRows();
    rows[0]!.submission = "<img src=x onerror=alert(1)>";
    rows[0]!.report!.deliverables[0]!.checks[0]!.message = 'loadCheckpoint returned "</pre><script>alert(1)</script>"; expected {}';
    const html = renderDashboard(classSummary(rubric, rows, AT));
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1]?.replace(/&#39;/g, "'");
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'$/);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(html.match(/<style>/g)).toHaveLength(1);
  });

  test("with a roster map, lists the submissions it names none of (an error row too), linked to their reports, and says so when it names every one; without one, no such section", () => {
    const rows = classRows().map((r) => (["ada", "dee"].includes(r.submission) ? { ...r, studentId: `id-${r.submission}` } : r));
    const s = classSummary(rubric, rows, AT, "map.csv");
    expect(s.rosterMap).toEqual({ file: "map.csv", notInMap: [{ submission: "bob", reportPath: "grades-reports/bob.json" }, { submission: "cy", reportPath: "grades-reports/cy.json" }, { submission: "eve" }] });
    const html = renderDashboard(s);
    expect(html).toContain('<a href="#not-in-map">Not in the roster map (3)</a>');
    expect(html).toContain('<h2 id="not-in-map-title">Not in the roster map (3)</h2>');
    expect(attributes(html, "tr", "data-row").slice(-3)).toEqual(["bob", "cy", "eve"]);
    expect(html).toContain('<tr data-row="bob"><td><a href="grades-reports/bob.json" data-submission="bob">bob</a></td></tr>');
    const everyone = renderDashboard(classSummary(rubric, rows.map((r) => ({ ...r, studentId: r.submission })), AT, "map.csv"));
    expect(everyone).toContain("Every submission has a student id from <code>map.csv</code>.");
    expect(renderDashboard(classSummary(rubric, rows, AT))).not.toContain("roster map");
  });

  test("a class with nobody graded says so instead of drawing empty figures", () => {
    const html = renderDashboard(classSummary(rubric, [{ submission: "x", report: null, error: "no starter/ folder", modified: [] }], AT));
    expect(html).toContain("No submission was graded.");
    expect(html).toContain("No check was graded.");
    expect(attributes(html, "figure", "data-distribution")).toEqual([]);
  });

  test("writeGradebook writes the dashboard beside the CSV and JSON, whole, and readGradebook reads the rows back unchanged", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "dashboard-" });
    try {
      const csv = path.join(tmp.path, "book", "grades.csv");
      const rows = classRows();
      for (const r of rows.filter((r) => r.reportPath)) {
        fs.mkdirSync(path.join(tmp.path, "book", "grades-reports"), { recursive: true });
        fs.writeFileSync(path.join(tmp.path, "book", r.reportPath!), JSON.stringify(r.report));
      }
      writeGradebook({ csv, rubric, rows, gradedAt: AT });
      const html = fs.readFileSync(gradebookPaths(csv).html, "utf8");
      expect(html).toBe(renderDashboard(classSummary(rubric, rows, AT)));
      expect(fs.readdirSync(path.join(tmp.path, "book")).sort()).toEqual(["grades-reports", "grades.csv", "grades.html", "grades.json"]);
      expect(readGradebook(gradebookPaths(csv).json).map((r) => [r.submission, r.report?.score ?? null])).toEqual(rows.map((r) => [r.submission, r.report?.score ?? null]));
    } finally {
      await tmp.cleanup();
    }
  });
});
