// Every count and exit status agrees across the terminal, the HTML page and the README: the crash
// states a grade with cached deliverables checked are counted the same way on both; a partial
// grade's page says it is one and where the full grade's page is; a passed check has no filler;
// a failure's command without --replay is labelled a partial grade; --only stretch-git exits as
// the README says.
import { describe, expect, test } from "vitest";
import { renderHtmlReport } from "../report/html/render.js";
import { exitCode, type CheckReport, type DeliverableReport, type Report } from "../report/report.js";
import { renderScoreboard } from "../report/terminal.js";
import { checkedLine, commandLabel } from "../report/words.js";

const check = (id: string, status: CheckReport["status"], crashStates: number, message?: string): CheckReport => ({
  id, title: `title of ${id}`, status, points: status === "passed" ? 5 : 0, maxPoints: 5, crashStates, ...(message ? { message } : {}),
  ...(status === "failed" ? { replay: `npm run grade -- --only phase1,${id} --seed 1` } : {}),
});

const deliverable = (id: string, kind: "core" | "bonus", checks: CheckReport[], cached = false): DeliverableReport => ({
  id, title: `title of ${id}`, kind, status: "graded", points: checks.reduce((n, c) => n + c.points, 0), maxPoints: 5 * checks.length, checks,
  crashStates: checks.reduce((n, c) => n + c.crashStates, 0), durationMs: 0, ...(cached ? { cached: true } : {}),
});

function reportOf(deliverables: DeliverableReport[], partial?: Report["partial"]): Report {
  const sum = (kind: string, f: (d: DeliverableReport) => number) => deliverables.filter((d) => d.kind === kind).reduce((n, d) => n + f(d), 0);
  return {
    schemaVersion: 6, target: "starter", seed: 1, deliverables,
    score: sum("core", (d) => d.points), maxScore: sum("core", (d) => d.maxPoints), bonus: sum("bonus", (d) => d.points), maxBonus: sum("bonus", (d) => d.maxPoints),
    stats: { crashStates: deliverables.reduce((n, d) => n + (d.crashStates ?? 0), 0), durationMs: 3100 },
    ...(partial ? { partial } : {}),
  };
}

describe("the counts of a grade, on the terminal and on the page", () => {
  // Seven deliverables from the cache, which had checked 1,532 crash states; one graded now, with none.
  const cached = Array.from({ length: 7 }, (_, i) => deliverable(`d${i}`, "core", [check(`d${i}.a`, "passed", i === 0 ? 1532 : 0)], true));
  const report = reportOf([...cached, deliverable("d7", "core", [check("d7.a", "passed", 0)])]);

  test("the crash states this grade checked, and those from the cache apart, in the same words on both", () => {
    const words = "0 crash states checked in 3.1\u00a0s (7 of 8 deliverables from the cache, which checked 1,532 more)";
    expect(checkedLine(report, 3.1)).toBe(words);
    expect(renderScoreboard(report, { color: false, seconds: 3.1, width: 200 }).split("\n").at(-1)).toBe(`Score 40/40 · ${words}`);
    expect(renderHtmlReport(report)).toContain(`Full grade of <code>starter</code>, seed 1: ${words}.`);
    expect(checkedLine(reportOf([deliverable("d", "core", [check("d.a", "passed", 12)])]), 1)).toBe("12 crash states checked in 1.0\u00a0s");
  });

  test("a passed check with nothing to tell has no filler on the page", () => {
    expect(renderHtmlReport(report)).not.toContain("nothing to tell");
  });
});

describe("a partial grade's page", () => {
  const partial = reportOf([deliverable("phase1", "core", [check("phase1.a", "failed", 3, "lost")])], { only: ["phase1.a"], maxScore: 100, maxBonus: 50 });

  test("says it is partial, names the last full grade's page with when it was written and the target it graded, or says there is none yet", () => {
    const html = renderHtmlReport(partial, { fullGrade: { file: ".grade/report.html", href: "../report.html", writtenAt: new Date(2026, 11, 4, 17, 40) } });
    expect(html).toContain("Partial grade of <code>starter</code>");
    expect(html).toContain(`The last full grade's page, <a href="../report.html">.grade/report.html</a> (written 2026-12-04 17:40), is still there`);
    // The full grade may be of another target than this partial one: the page says which.
    const ofOther = renderHtmlReport(partial, { fullGrade: { file: ".grade/report.html", href: "../report.html", writtenAt: new Date(2026, 11, 4, 17, 40), target: "subs/s1" } });
    expect(ofOther).toContain(`The last full grade's page (a grade of subs/s1), <a href="../report.html">`);
    expect(renderHtmlReport(partial, { fullGrade: null })).toContain("No full grade's page is there yet");
    // A page written elsewhere (--html) does not know where the full grade's page is, and says nothing of it.
    expect(renderHtmlReport(partial)).not.toMatch(/full grade's page/);
  });

  test("labels a command without --replay 'partial grade', on the terminal and on the page; one with --replay stays 'replay'", () => {
    expect(commandLabel("npm run grade -- --only phase1,phase2.complete-run --seed 1")).toBe("partial grade");
    expect(commandLabel("npm run grade -- --only phase1.crash-safety --seed 1 --replay 0:1")).toBe("replay");
    expect(renderScoreboard(partial, { color: false, seconds: 1, width: 100 })).toContain("partial grade: npm run grade -- --only phase1,phase1.a --seed 1");
    expect(renderHtmlReport(partial)).toContain('<span class="label">Partial grade:</span>');
  });
});

describe("the exit status of a grade of bonus checks only", () => {
  const failing = reportOf([deliverable("stretch-git", "bonus", [check("stretch-git.commits", "failed", 0, "lost")])]);
  const passing = reportOf([deliverable("stretch-git", "bonus", [check("stretch-git.commits", "passed", 0)])]);

  test("--only stretch-git: 1 while a stretch-git check fails, 0 once every one passes; a bonus check it does not name never counts", () => {
    expect(exitCode(failing, ["stretch-git"])).toBe(1);
    expect(exitCode(passing, ["stretch-git"])).toBe(0);
    expect(exitCode(failing, ["phase1"])).toBe(0);
  });
});
