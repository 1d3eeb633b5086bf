// The report formats, on a report with every kind of check status: the autograding reporter's
// runner result sums to the core score, JUnit XML is well formed and counts right, Markdown tells
// each lost point's story; and `npm run report` stands in for a grade that wrote no report.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { junit } from "../report/formats/junit.js";
import { markdown } from "../report/formats/markdown.js";
import { runnerResult } from "../report/formats/runner-result.js";
import type { CheckReport, Report } from "../report/report.js";

const check = (id: string, status: CheckReport["status"], points: number, maxPoints: number, message?: string): CheckReport => ({
  id, title: `title of ${id}`, status, points, maxPoints, message, replay: status === "failed" ? `npm run grade -- --only ${id} --seed 1` : undefined, crashStates: 0,
});

const REPORT: Report = {
  schemaVersion: 2, target: "somewhere", seed: 1, score: 12, maxScore: 30, bonus: 4, maxBonus: 10,
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

describe("report formats", () => {
  test("the runner result holds the core checks, with partial credit, summing to the core score", () => {
    const r = runnerResult(REPORT);
    expect(r.max_score).toBe(REPORT.maxScore);
    expect(r.tests.reduce((n, t) => n + t.score, 0)).toBe(REPORT.score);
    expect(r.tests.map((t) => t.status)).toEqual(["pass", "fail", "fail", "error"]);
    expect(r.status).toBe("error");
    expect(r.tests[1]!.message).toContain("Replay: npm run grade -- --only phase1.b");
    const one = runnerResult(REPORT, ["phase1"]);
    expect([one.status, one.max_score, one.tests.length]).toEqual(["fail", 20, 2]);
    expect(runnerResult(REPORT, ["bonus1"]).max_score).toBe(10); // a bonus deliverable only when asked for
  });

  test("JUnit XML is well formed, one suite per deliverable, failures and errors counted", () => {
    const xml = junit(REPORT);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="Checkpoint lab" tests="6" failures="3" errors="1">/);
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    expect(xml).toContain("&lt;&amp;&gt; ]]&gt;");
    expect(xml).not.toMatch(/\u0007/);
    // Every element that opens closes, in order.
    const stack: string[] = [];
    for (const [, close, name, self] of xml.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
      if (self) continue;
      if (close) expect(stack.pop()).toBe(name);
      else stack.push(name!);
    }
    expect(stack).toEqual([]);
  });

  test("Markdown gives the scores, each lost point's story and replay, and the measurements", () => {
    const md = markdown(REPORT);
    expect(md).toContain("## Checkpoint lab: 12/30, bonus 4/10");
    expect(md).toContain("| Phase 1 | 12/20 |");
    expect(md).toContain("❌ `phase1.b` title of phase1.b: **0/8**");
    expect(md).toContain("Replay: `npm run grade -- --only phase1.b --seed 1`");
    // A story cannot close its code block early: the fence inside it is broken up.
    expect(md).not.toMatch(/^\s*```\s*\n\s*second line/m);
    expect(md).toMatch(/\| pipe\n\s*`\u200b``\n\s*second line/);
    expect(md).toContain("| time | 1 ms | 2 ms |");
  });

  test("npm run report writes the formats from a saved report, and errors with the rubric's points when there is none", async () => {
    const out = await dir({ unsafeCleanup: true });
    try {
      const saved = path.join(out.path, "report.json");
      fs.writeFileSync(saved, JSON.stringify(REPORT));
      const run = (from: string, file: string) => execa("npx", ["tsx", "grader/cli/report.ts", "--from", from, "--only", "phase2", "--runner-result", file], { cwd: REPO_ROOT });
      await run(saved, path.join(out.path, "a.json"));
      expect(JSON.parse(fs.readFileSync(path.join(out.path, "a.json"), "utf8")).max_score).toBe(10);
      await run(path.join(out.path, "missing.json"), path.join(out.path, "b.json"));
      const missing = JSON.parse(fs.readFileSync(path.join(out.path, "b.json"), "utf8"));
      expect([missing.status, missing.max_score]).toEqual(["error", 35]);
      expect(missing.tests[0].message).toMatch(/The grade did not finish/);
    } finally {
      await out.cleanup();
    }
  });
});
