// The fast path for whoever changes one deliverable's checks (`npm run test:deliverable -- <id>`,
// which names the deliverables in CHECKPOINT_LAB_TEST_DELIVERABLES): the reference graded on each
// keeps every point, and each fixture that shows the deliverable's checks at work (support/grade.ts
// fixturesOf) loses exactly the checks of it that its fixture.json lists, graded on that
// deliverable alone, two grades at a time; each report is rendered at three widths. What this
// leaves to `npm run test:submissions` (buggy-fixtures.test.ts): a fixture's other deliverables,
// its grade from the cache, and its printed command run as printed.
import { describe, expect, test } from "vitest";
import stringWidth from "string-width";
import type { Report } from "../report/report.js";
import { renderScoreboard } from "../report/terminal.js";
import { loadRubric } from "../rubric.js";
import { DELIVERABLES_VARIABLE } from "../tools/test-deliverable.js";
import { buggyFixtures, composeTarget, expectedExit, fixturesOf, grade, notPassed, notPassedWhy, prose, titlesShown, type GradeRun } from "./support/grade.js";

const rubric = loadRubric();
const named = (process.env[DELIVERABLES_VARIABLE] ?? "").split(",").filter((id) => id !== "");
if (named.length === 0) throw new Error(`deliverable.test.ts tests the deliverables ${DELIVERABLES_VARIABLE} names: run it as \`npm run test:deliverable -- <id>\``);
const fixtures = buggyFixtures();

// maxConcurrency (vitest.config.ts, project `deliverable`): two grades at a time, one per core.
describe.concurrent.each(named)("%s alone", (id) => {
  const deliverable = rubric.deliverables.find((d) => d.id === id);
  if (!deliverable) throw new Error(`${DELIVERABLES_VARIABLE} names ${id}, which grader/rubric.json does not`);
  const checks = deliverable.checks.map((c) => c.id);

  test(`the reference earns every point of ${id}`, async () => {
    const run = await gradedAlone(id, checks);
    expect(notPassedWhy(run.report!)).toEqual({});
    expect(run.exitCode).toBe(0);
  });

  test.each(fixturesOf(fixtures, rubric, id))(`$name loses exactly the checks of ${id} (and of those it builds on) its fixture.json lists`, async ({ dir, fails }) => {
    const run = await gradedAlone(id, checks, dir);
    const report = run.report!;
    // Graded here: this deliverable's checks and those they build on (phase1's under phase2).
    const graded = new Set(report.deliverables.flatMap((d) => d.checks).map((c) => c.id));
    expect(notPassed(report), JSON.stringify(notPassedWhy(report), null, 1)).toEqual(fails.filter((c) => graded.has(c)).sort());
    expect(run.exitCode).toBe(expectedExit(report, fails, ["--only", id]));
  });
});

/**
 * The reference, with `overlay`'s files in place of its own, graded on deliverable `id` alone:
 * its report has every one of the deliverable's `checks`, and renders at every width.
 */
async function gradedAlone(id: string, checks: string[], overlay?: string): Promise<GradeRun> {
  const target = await composeTarget(overlay);
  try {
    const run = await grade(target.path, ["--only", id]);
    expect(run.report?.deliverables.find((d) => d.id === id)?.checks.map((c) => c.id), run.stdout + run.stderr).toEqual(checks);
    rendersAtEveryWidth(run.report!);
    return run;
  } finally {
    await target.cleanup();
  }
}

/** The report's scoreboard at 60, 80 and 120 columns: no line wider, and no title cut (titlesShown). */
function rendersAtEveryWidth(report: Report): void {
  for (const width of [60, 80, 120]) {
    const board = renderScoreboard(report, { color: false, seconds: 1, width, rubric });
    expect(Math.max(...board.split("\n").map((l) => stringWidth(l))), board).toBeLessThanOrEqual(width);
    const shown = prose(board);
    for (const title of titlesShown(report)) expect(shown).toContain(title);
  }
}
