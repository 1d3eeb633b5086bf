// What the student reads fits the terminal: every line of a scoreboard within the width, titles
// wrapped and never cut, stories with a hanging indent, commands that still paste as one; and,
// through a real terminal (a pty, at 60, 80 and 120 columns), a grade's own output.
import path from "node:path";
import pc from "picocolors";
import stringWidth from "string-width";
import { stripVTControlCharacters as stripAnsi } from "node:util";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { commandLines, hanging, outputWidth, titleRow, wantsColor } from "../report/layout.js";
import type { Report } from "../report/report.js";
import { renderScoreboard } from "../report/terminal.js";
import { pictureLines } from "../report/picture-lines.js";
import { composeTarget, gradeInTerminal, prose } from "./support/grade.js";

const LONG_TITLE = "Beyond the handout: concurrent writers never tear the checkpoint, not even with three of them";
const STORY = `With the old checkpoint {"step":1} on disk, atomicCheckpoint(path, {"step":2}) was killed right after writeFileSync("checkpoint.json") opened the file (flags "w"), and ${"x".repeat(150)} ended`;
const COMMAND = "npm run grade -- --target ../some/where/else --only phase2.crash-schedules --seed 20261129 --replay 8:1:1:8:4:2:2:2:2:2";

const widest = (lines: string[]) => Math.max(...lines.map((l) => stringWidth(l)));

const REPORT: Report = {
  schemaVersion: 6, target: "t", seed: 1, score: 0, maxScore: 12, bonus: 0, maxBonus: 0, stats: { crashStates: 1, durationMs: 1 },
  deliverables: [{ id: "concurrency", title: LONG_TITLE, kind: "bonus", status: "graded", points: 0, maxPoints: 12, checks: [
    { id: "concurrency.x", title: "a check whose title is far longer than any terminal line leaves room for, as titles may be", status: "failed", points: 0, maxPoints: 12, message: `${STORY}\nsecond line`, replay: COMMAND, crashStates: 1 },
  ] }],
};

describe("lines that fit the terminal", () => {
  test.each([40, 60, 80, 100])("at %i columns: a title row wraps the title under itself, never cut, with the score on its last line", (width) => {
    const lines = titleRow(LONG_TITLE, "10/10 (bonus)", { indent: 2, width, mark: "✓" });
    expect(widest(lines)).toBeLessThanOrEqual(width);
    expect(lines[0]).toMatch(/^  ✓ Beyond/);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {4}\S/);
    expect(lines.map((l) => l.trim()).join(" ").replace(/ +10\/10 \(bonus\)$/, "")).toBe(`✓ ${LONG_TITLE}`);
    expect(lines.at(-1)!.endsWith("10/10 (bonus)")).toBe(true);
  });

  test("a title that fits puts its score in the column every other score of the board starts in", () => {
    const a = titleRow("Phase 1: atomic checkpoint", "35/35", { indent: 0, width: 80 });
    const b = titleRow("loads back what was written", "8/8", { indent: 2, width: 80, mark: "✓" });
    expect([a.length, b.length]).toEqual([1, 1]);
    expect(a[0]!.indexOf("35/35")).toBe(b[0]!.indexOf("8/8"));
    expect(a[0]!.indexOf("35/35")).toBe(67);
  });

  test.each([40, 60, 80])("at %i columns: a story line wraps with a hanging indent and loses no word", (width) => {
    const lines = hanging(STORY, { indent: 6, width });
    // A word longer than the line (a long path, a long value) is broken to fit.
    expect(widest(lines)).toBeLessThanOrEqual(width);
    expect(lines[0]!.startsWith("      W")).toBe(true);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {8}\S/);
    expect(lines.every((l) => !l.endsWith(" "))).toBe(true);
    // A numbered line of a story keeps its own indent, and wraps under its text.
    const numbered = hanging(`  12. B: ${STORY}`, { indent: 6, width });
    expect(numbered[0]).toMatch(/^ {8}12\. B: /);
    for (const l of numbered.slice(1)) expect(l).toMatch(/^ {10}\S/);
    const words = STORY.replace(/x{150}/, "xxxx");
    expect(hanging(words, { indent: 6, width }).map((l) => l.trim()).join(" ")).toBe(words);
  });

  test.each([40, 60, 80])("at %i columns: a command wraps with a backslash at each break, and pastes back as the same words", (width) => {
    const lines = commandLines("replay: ", COMMAND, { indent: 6, width });
    expect(widest(lines)).toBeLessThanOrEqual(width);
    expect(lines.slice(0, -1).every((l) => l.endsWith(" \\"))).toBe(true);
    expect(lines.join("\n").replace(/ \\\n\s+/g, " ").trim()).toBe(`replay: ${COMMAND}`);
  });

  test("the width is the terminal's columns (40 to 100), and 80 when the output is not a terminal", () => {
    expect([outputWidth({ isTTY: true, columns: 60 }), outputWidth({ isTTY: true, columns: 200 }), outputWidth({ isTTY: true, columns: 20 }), outputWidth({ columns: 60 })]).toEqual([60, 100, 40, 80]);
  });

  test("colours follow the terminal, NO_COLOR and FORCE_COLOR", () => {
    const tty = { isTTY: true };
    expect([wantsColor(tty, {}), wantsColor({}, {}), wantsColor(tty, { NO_COLOR: "1" }), wantsColor(tty, { NO_COLOR: "" }), wantsColor({}, { FORCE_COLOR: "1" }), wantsColor(tty, { FORCE_COLOR: "0" }), wantsColor({}, { FORCE_COLOR: "1", NO_COLOR: "1" })]).toEqual([true, false, false, true, true, false, true]);
  });

  test.each([60, 80, 120])("a whole scoreboard at %i columns: no line wider, in colour too", (width) => {
    for (const color of [false, true]) {
      const text = renderScoreboard(REPORT, { color, seconds: 1, width: Math.min(width, 100) });
      expect(widest(text.split("\n"))).toBeLessThanOrEqual(width);
      expect(stripAnsi(text).replace(/\s+/g, " ")).toContain(LONG_TITLE);
    }
  });
});

describe("a measurement table", () => {
  const measured: Report = {
    ...REPORT,
    deliverables: [{ ...REPORT.deliverables[0]!, checks: [], measurements: [{
      id: "m", title: "File checkpoint vs git checkpoint (reported, not scored)", columns: ["runner.ts", "git-checkpoint.ts"], note: "a note", data: null,
      rows: [{ label: "recovered, killed right after the commit/rename", cells: ["1 of 4", "4 of 4"] }, { label: "disk space after a run", cells: ["30.9 KiB in 1 file", "59.4 KiB in 38 files"] }],
    }] }],
  };

  test("fits as a table where it can: a header row, then one row per label, each cell under its column", () => {
    const lines = renderScoreboard(measured, { color: false, seconds: 1, width: 100 }).split("\n");
    const header = lines.findIndex((l) => l.includes("runner.ts") && l.includes("git-checkpoint.ts"));
    expect(lines[header + 2]).toMatch(/^ {4}disk space after a run +30\.9 KiB in 1 file +59\.4 KiB in 38 files$/);
    expect(lines[header + 2]!.indexOf("30.9")).toBe(lines[header]!.indexOf("runner.ts"));
  });

  test.each([40, 60, 80])("wider than %i columns, it is told row by row: each label, then each column's cell, no line wider than the terminal", (width) => {
    const text = renderScoreboard(measured, { color: false, seconds: 1, width });
    expect(widest(text.split("\n"))).toBeLessThanOrEqual(width);
    expect(prose(text)).toContain("disk space after a run runner.ts: 30.9 KiB in 1 file; git-checkpoint.ts: 59.4 KiB in 38 files");
    expect(prose(text)).toContain("recovered, killed right after the commit/rename runner.ts: 1 of 4; git-checkpoint.ts: 4 of 4");
  });
});

describe("a grade under a real terminal", () => {
  test("at 60, 80 and 120 columns, no line of a grade with failures is wider than the terminal, and nothing but a picture's lines is cut", async () => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/concurrency/fixed-temp-name"));
    try {
      for (const columns of [60, 80, 120]) {
        const run = await gradeInTerminal(target.path, ["--only", "concurrency.two-writers", "--only", "phase1.crash-safety"], { columns });
        const lines = run.stdout.replace(/\r/g, "").split("\n");
        expect(lines.some((l) => /(replay|partial grade): /.test(l)), String(run.stdout)).toBe(true);
        expect(widest(lines), String(run.stdout)).toBeLessThanOrEqual(columns);
        // A picture cuts its long lines with "…"; nothing else is cut: no title, no story, no command.
        const drawn = new Set(run.report!.deliverables.flatMap((d) => d.checks).flatMap((c) => (c.picture ? pictureLines(c.picture, { width: outputWidth({ isTTY: true, columns }), indent: 6, c: pc.createColors(true) }).map((l) => stripAnsi(l)) : [])));
        expect(drawn.size, "the grade drew no picture").toBeGreaterThan(0);
        const told = lines.map((l) => stripAnsi(l)).filter((l) => !drawn.has(l));
        expect(told.length, "the picture's lines were not found in the output").toBeLessThan(lines.length);
        expect(told.join("\n")).not.toContain("…");
        expect(String(run.stdout).replace(/\s+/g, " ")).toContain("Beyond the handout: concurrent writers never tear the checkpoint");
      }
    } finally {
      await target.cleanup();
    }
  });
});
