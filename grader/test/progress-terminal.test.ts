// The live progress of a cold grade of the reference, as a student sees it: under a real terminal
// (tmux), captured each second, the first row comes while most deliverables are still to be
// decided (how many seconds that is is the bench's to say, not a test's: which share of a grade the
// first deliverable takes depends on the machine's disk as much as on its processors), the rows
// appear one by one, the live line
// changes, and the final screen is the scoreboard the same grade prints when its output is not a
// terminal. Piped, the same grade's lines are solution-and-starter.test.ts's.
import { execa } from "execa";
import path from "node:path";
import { dir } from "tmp-promise";
import { expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { readReport } from "../report/read-report.js";
import { loadRubric } from "../rubric.js";
import { plainScoreboard } from "./support/grade.js";

const LAUNCH = path.join(REPO_ROOT, "grader/cli/launch.mjs");
const TITLES = loadRubric().deliverables.filter((d) => d.enabled && d.checks.length > 0).map((d) => d.title);
const SESSION = `grade-progress-${process.pid}`;
const tmux = (...args: string[]) => execa("tmux", args, { reject: false });
/** A row as the terminal shows it while grading: a deliverable's title, then its score in the score column. */
const isRow = (line: string) => TITLES.some((t) => line.startsWith(t)) && /\s\d+\/\d+( \(bonus\))?$/.test(line);
const isLive = (line: string) => /^\d+\u00a0s · [\d,]+ crash states? · /.test(line);

test("under a terminal, a cold grade of the reference shows its first row while most rows are still to come, then each row as it finishes under a changing live line, and ends on the plain scoreboard", async () => {
  const out = await dir({ unsafeCleanup: true });
  const json = path.join(out.path, "report.json");
  try {
    // Tall enough for the whole scoreboard: the final screen is compared with it, line for line.
    const command = `cd ${REPO_ROOT} && ${process.execPath} ${LAUNCH} --target ${SOLUTION_DIR} --no-cache --json ${json}; echo GRADE-ENDED $?; sleep 600`;
    await tmux("new-session", "-d", "-s", SESSION, "-x", "80", "-y", "150", command);
    const frames: { lines: string[] }[] = [];
    for (const end = Date.now() + 540_000; Date.now() < end; await new Promise((r) => setTimeout(r, 1000))) {
      const screen = String((await tmux("capture-pane", "-p", "-t", SESSION)).stdout);
      frames.push({ lines: screen.split("\n").map((l) => l.trimEnd()) });
      if (screen.includes("GRADE-ENDED")) break;
    }
    const last = frames.at(-1)!.lines;
    expect(last.join("\n")).toContain("GRADE-ENDED 0");
    const during = frames.slice(0, -1);
    const firstRow = during.findIndex((f) => f.lines.some(isRow));
    expect(firstRow, "a frame with a row").toBeGreaterThanOrEqual(0);
    expect(during[firstRow]!.lines.filter(isRow).length).toBeLessThanOrEqual(TITLES.length / 2);
    expect(during[firstRow]!.lines.some(isLive), "the live line under the first row").toBe(true);
    // One by one: the frames show the rows in more counts than none and all.
    const counts = new Set(during.map((f) => f.lines.filter(isRow).length));
    expect(counts.size).toBeGreaterThanOrEqual(4);
    const live = new Set(during.flatMap((f) => f.lines.filter(isLive)));
    expect(live.size).toBeGreaterThanOrEqual(3);
    // Once over: the scoreboard alone, as piped, then the shell's line.
    const printed = last.slice(0, last.findIndex((l) => l.startsWith("GRADE-ENDED"))).join("\n").replace(/\n+$/, "");
    expect(printed).toBe(plainScoreboard(readReport(json), printed));
  } finally {
    await tmux("kill-session", "-t", SESSION);
    await out.cleanup();
  }
});
