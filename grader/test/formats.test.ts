// The report formats, on a report with every kind of check status: JUnit XML is well formed and
// counts right, Markdown tells each lost point's story; and `npm run report` stands in for a grade that wrote no report.
import { DOMParser, type Document, type Element } from "@xmldom/xmldom";
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import pc from "picocolors";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { junit } from "../report/formats/junit.js";
import { gradescopeResults } from "../report/formats/gradescope.js";
import { markdown } from "../report/formats/markdown.js";
import type { CallsPicture } from "../contract/picture.js";
import { pictureLines } from "../report/picture-lines.js";
import { sameCause, type CheckReport, type Report } from "../report/report.js";
import { renderScoreboard } from "../report/terminal.js";

const check = (id: string, status: CheckReport["status"], points: number, maxPoints: number, message?: string): CheckReport => ({
  id, title: `title of ${id}`, status, points, maxPoints, message, replay: status === "failed" ? `npm run grade -- --only ${id} --seed 1` : undefined, crashStates: 0,
});

const REPORT: Report = {
  schemaVersion: 6, target: "somewhere", seed: 1, score: 12, maxScore: 30, bonus: 4, maxBonus: 10,
  deliverables: [
    { id: "phase1", title: "Phase 1", kind: "core", status: "graded", points: 12, maxPoints: 20, checks: [
      check("phase1.a", "passed", 12, 12),
      check("phase1.b", "failed", 0, 8, 'On disk: "x" <&> ]]> | pipe\n```\nsecond line'),
    ] },
    { id: "phase2", title: "Phase 2", kind: "core", status: "graded", points: 0, maxPoints: 10, checks: [
      check("phase2.a", "blocked", 0, 6, "Scored only once phase2.b passes; fix that first."),
      check("phase2.b", "error", 0, 4, "the grader could not run this check: boom\u0007"),
    ] },
    { id: "bonus1", title: "Bonus", kind: "bonus", status: "graded", points: 4, maxPoints: 10, checks: [check("bonus1.a", "passed", 4, 4), check("bonus1.b", "failed", 0, 6, "lost")],
      measurements: [{ id: "bonus1.m", title: "A measurement", columns: ["x", "y"], rows: [{ label: "time", cells: ["1 ms", "2 ms"], varies: true }], note: "a note", data: null }] },
  ],
  stats: { crashStates: 5, durationMs: 1 },
};

/** `xml` as a DOM; throws where it is not well formed (a warning, such as on U+FFFD in the text, is no error). */
function parseXml(xml: string): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") throw new Error(`${level}: ${message}`);
    },
  });
  return parser.parseFromString(xml, "text/xml");
}

/** The elements directly inside `node`; anything else there is white space. */
function elements(node: Element): Element[] {
  const children = [...node.childNodes];
  for (const other of children.filter((c) => c.nodeType !== c.ELEMENT_NODE)) expect(other.nodeType === other.TEXT_NODE && other.nodeValue?.trim()).toBe("");
  return children.filter((c): c is Element => c.nodeType === c.ELEMENT_NODE);
}

function attributes(element: Element): Record<string, string> {
  return Object.fromEntries([...element.attributes].map((a) => [a.name, a.value]));
}

describe("report formats", () => {
  test("JUnit XML parses as XML: one suite per deliverable, one case per check, each failure and error with its message and story", () => {
    const xml = junit(REPORT);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).not.toMatch(/\u0007/); // XML 1.0 cannot hold it, and the parser does not look
    const root = parseXml(xml).documentElement!;
    expect(root.tagName).toBe("testsuites");
    expect(attributes(root)).toEqual({ name: "Checkpoint lab", tests: "6", failures: "3", errors: "1" });
    const suites = elements(root);
    expect(suites.map((s) => [s.tagName, attributes(s)])).toEqual([
      ["testsuite", { name: "phase1", tests: "2", failures: "1", errors: "0", skipped: "0" }],
      ["testsuite", { name: "phase2", tests: "2", failures: "1", errors: "1", skipped: "0" }],
      ["testsuite", { name: "bonus1", tests: "2", failures: "1", errors: "0", skipped: "0" }],
    ]);
    const properties = (suite: Element) => {
      const [list, ...rest] = elements(suite);
      expect(list!.tagName).toBe("properties");
      return { properties: elements(list!).map((p) => [p.tagName, attributes(p)]), cases: rest };
    };
    expect(suites.map((s) => properties(s).properties)).toEqual(
      [["Phase 1", "core", "12", "20"], ["Phase 2", "core", "0", "10"], ["Bonus", "bonus", "4", "10"]].map(([title, kind, points, maxPoints]) => [
        ["property", { name: "title", value: title }], ["property", { name: "kind", value: kind }], ["property", { name: "points", value: points }], ["property", { name: "maxPoints", value: maxPoints }],
      ]),
    );
    // Each case: its attributes, then what it holds (a failure or an error: attributes and text).
    const cases = suites.map((s) => properties(s).cases.map((c) => [c.tagName, attributes(c), ...elements(c).map((e) => [e.tagName, attributes(e), e.textContent])]));
    const passed = (suite: string, id: string) => ["testcase", { classname: suite, name: `${id}: title of ${id}`, time: "0" }];
    expect(cases).toEqual([
      [
        passed("phase1", "phase1.a"),
        [...passed("phase1", "phase1.b"), ["failure", { message: '0/8 points: On disk: "x" <&> ]]> | pipe', type: "failed" }, 'On disk: "x" <&> ]]> | pipe\n```\nsecond line\nPartial grade: npm run grade -- --only phase1.b --seed 1']],
      ],
      [
        [...passed("phase2", "phase2.a"), ["failure", { message: "0/6 points: Scored only once phase2.b passes; fix that first.", type: "blocked" }, "Scored only once phase2.b passes; fix that first."]],
        [...passed("phase2", "phase2.b"), ["error", { message: "0/4 points: the grader could not run this check: boom\uFFFD", type: "error" }, "the grader could not run this check: boom\uFFFD"]],
      ],
      [
        passed("bonus1", "bonus1.a"),
        [...passed("bonus1", "bonus1.b"), ["failure", { message: "0/6 points: lost", type: "failed" }, "lost\nPartial grade: npm run grade -- --only bonus1.b --seed 1"]],
      ],
    ]);
    // --only keeps the suites it names, and the counts are theirs.
    const phase2 = parseXml(junit(REPORT, ["phase2"])).documentElement!;
    expect([attributes(phase2), elements(phase2).map((s) => s.getAttribute("name"))]).toEqual([{ name: "Checkpoint lab", tests: "2", failures: "1", errors: "1" }, ["phase2"]]);
  });

  test("the XML parser refuses what is not well formed", () => {
    for (const bad of ["<a><b></a>", '<a x="1" x="2"/>', "<a>&nbsp;</a>", "<a/><b/>", "<a>"]) expect(() => parseXml(bad), bad).toThrow();
  });

  test("Markdown gives the scores, each lost point's story and replay, and the measurements", () => {
    const md = markdown(REPORT);
    expect(md).toContain("## Checkpoint lab: 12/30, bonus 4/10");
    expect(md).toContain("| Phase 1 | 12/20 |");
    expect(md).toContain("❌ `phase1.b` title of phase1.b: **0/8**");
    // A command without --replay grades the check again: a partial grade, labelled so.
    expect(md).toContain("Partial grade: `npm run grade -- --only phase1.b --seed 1`");
    // A story cannot close its code block early: the fence inside it is broken up.
    expect(md).not.toMatch(/^\s*```\s*\n\s*second line/m);
    expect(md).toMatch(/\| pipe\n\s*`\u200b``\n\s*second line/);
    expect(md).toContain("| time | 1 ms | 2 ms |");
  });

  test("Markdown draws a failure's picture as the terminal does without colour (80 columns), in the story's text block, above the story; a failure with no picture gets only its story", () => {
    const picture: CallsPicture = { kind: "calls", call: "atomicCheckpoint(path, {\"step\":2})", ops: [{ what: 'writeFileSync("checkpoint.json"): open' }, { what: 'writeFileSync("checkpoint.json")', bytes: 10 }], cut: { afterOps: 1, how: "killed" }, after: [{ name: "checkpoint.json", bytes: 0, holds: "empty" }] };
    const drawn = { ...REPORT, deliverables: REPORT.deliverables.map((d) => ({ ...d, checks: d.checks.map((c) => (c.id === "phase1.b" ? { ...c, picture } : c)) })) };
    const md = markdown(drawn);
    const lines = pictureLines(picture, { width: 80, indent: 0, c: pc.createColors(false) });
    const block = md.slice(md.indexOf("❌ `phase1.b`"), md.indexOf("Partial grade: `npm run grade -- --only phase1.b"));
    expect(block).toContain(["  ```text", ...lines.map((l) => `  ${l}`), "  ", '  On disk: "x" <&> ]]> | pipe'].join("\n"));
    expect(lines.join("\n")).toContain("✂ killed here");
    const bonus = md.slice(md.indexOf("❌ `bonus1.b`"));
    expect(bonus).toContain("  ```text\n  lost\n  ```");
  });

  test("Markdown of a grade with --only heads it as partial, with no score that passes for the grade, and a deliverable not started in one line", () => {
    const partial: Report = { ...REPORT, partial: { only: ["phase1"], maxScore: 100, maxBonus: 50 } };
    const md = markdown(partial);
    expect(md).not.toMatch(/^## Checkpoint lab: /m);
    expect(md).toMatch(/^## Checkpoint lab, partial\n\nPartial grade \(--only phase1\): 30 of 100 core points and 10 of 50 bonus points graded here; earned 12 and 4; npm run grade -- --target somewhere gives the grade\.$/m);
    const notStarted: Report = { ...REPORT, deliverables: REPORT.deliverables.map((d) => (d.id === "phase2" ? { ...d, notStarted: { functions: ["runTask (runner.ts)"], all: true } } : d)) };
    const text = markdown(notStarted);
    expect(text).toContain("- ⏸️ not started: runTask is not implemented yet (runner.ts)\n");
    expect(text).not.toContain("phase2.a");
  });

  test("a blocked check's own failure is left out when its cause is its requirement's (an error both tell, or its run with no crash), and kept when it is another; the words are never compared", () => {
    const typeError = { name: "TypeError", message: 'cannot read "step" of undefined' };
    const required = { status: "failed" as const, cause: { errors: [typeError] } };
    expect(sameCause({ cause: { errors: [{ name: "Error", message: "disk full" }, typeError] } }, required)).toBe(true);
    expect(sameCause({ cause: { errors: [{ name: "Error", message: "disk full" }] } }, required)).toBe(false);
    expect(sameCause({ cause: { errors: [{ ...typeError, code: "ERR_X" }] } }, required)).toBe(false);
    const session = { name: "exit code 1", message: "Error: not implemented yet: session (starter/session.ts)" };
    expect(sameCause({ cause: { errors: [session] } }, { status: "failed", cause: { errors: [session] } })).toBe(true);
    // A failure of the check's own run with no crash is the one its requirement judges, even with no error told.
    expect(sameCause({ cause: { crashFreeRun: true } }, { status: "failed" })).toBe(true);
    // Only a requirement that failed has a failure to share: not one the grader could not run, nor none.
    expect(sameCause({ cause: { crashFreeRun: true } }, { status: "error" })).toBe(false);
    expect(sameCause({ cause: { errors: [typeError] } }, undefined)).toBe(false);
    expect(sameCause({}, required)).toBe(false);
    // Gone wrong the same way, with no error: one outcome.
    const earlier = { outcome: "firstDivergence returned an earlier step" };
    expect(sameCause({ cause: earlier }, { status: "failed", cause: earlier })).toBe(true);
    expect(sameCause({ cause: earlier }, { status: "failed", cause: { outcome: "firstDivergence returned a later step" } })).toBe(false);
  });

  test("a story told word for word under an earlier check is referenced, not repeated; its replay is still given", () => {
    const story = "Run 1 was killed at the boundary after step 1.\nRun 2, a new process, then ran runTask to the end: step 1 ran 2 times.";
    const twice: Report = { ...REPORT, deliverables: [{ ...REPORT.deliverables[0]!, checks: [check("phase1.x", "failed", 0, 4, story), check("phase1.y", "failed", 0, 4, story)] }] };
    const text = renderScoreboard(twice, { color: false, seconds: 1 });
    expect(text.split("Run 2, a new process").length).toBe(2);
    expect(text).toContain("      phase1.y\n      The same story as phase1.x above.\n      partial grade: npm run grade -- --only phase1.y --seed 1");
  });

  test("a check that passed with a note shows the note under its tick in the terminal, in Markdown and on Gradescope; one passed without a note shows only its row", () => {
    const note = "Passed with the stand-in checkpoint.ts. With your own files:\nrunTask threw Error (EEXIST): file already exists";
    const noted: Report = { ...REPORT, deliverables: [{ ...REPORT.deliverables[0]!, points: 20, checks: [check("phase1.a", "passed", 12, 12), check("phase1.n", "passed", 8, 8, note)] }] };
    const text = renderScoreboard(noted, { color: false, seconds: 1 });
    expect(text).toMatch(/✓ title of phase1\.n +8\/8\n      Passed with the stand-in checkpoint\.ts\. With your own files:\n      runTask threw Error \(EEXIST\): file already exists\n/);
    expect(text).toMatch(/✓ title of phase1\.a +12\/12\n  ✓ title of phase1\.n/);
    expect(text).not.toContain("      phase1.n");
    expect(markdown(noted)).toContain("`phase1.n` title of phase1.n: **8/8**\n\n  ```text\n  Passed with the stand-in checkpoint.ts. With your own files:\n  runTask threw Error (EEXIST): file already exists\n  ```");
    const { tests } = gradescopeResults(noted, []);
    expect(tests.find((t) => t.name.includes("phase1.n"))!.output).toBe(`Passed. ${note}`);
    expect(tests.find((t) => t.name.includes("phase1.a"))!.output).toBe("Passed.");
  });

  test("npm run report writes the formats from a saved report, and errors with the rubric's points when there is none", async () => {
    const out = await dir({ unsafeCleanup: true });
    try {
      const saved = path.join(out.path, "report.json");
      fs.writeFileSync(saved, JSON.stringify(REPORT));
      const run = (from: string, file: string) => execa("npx", ["tsx", "grader/cli/report.ts", "--from", from, "--only", "phase2", "--gradescope", file], { cwd: REPO_ROOT });
      await run(saved, path.join(out.path, "a.json"));
      const graded = JSON.parse(fs.readFileSync(path.join(out.path, "a.json"), "utf8"));
      expect(graded.tests.filter((t: { name: string }) => !t.name.startsWith("(bonus)")).reduce((n: number, t: { max_score: number }) => n + t.max_score, 0)).toBe(10);
      await run(path.join(out.path, "missing.json"), path.join(out.path, "b.json"));
      const missing = JSON.parse(fs.readFileSync(path.join(out.path, "b.json"), "utf8"));
      expect(missing.score).toBe(0);
      expect(missing.tests.reduce((n: number, t: { max_score: number }) => n + t.max_score, 0)).toBe(35);
      expect(missing.tests.every((t: { status: string; output: string }) => t.status === "failed" && /The grade did not finish/.test(t.output))).toBe(true);
    } finally {
      await out.cleanup();
    }
  });
});
