// Each known-buggy implementation in grader/fixtures loses exactly the checks its fixture.json
// names, and every message tells the crash story with a replay command and no machine paths.
// Each is graded through a verdict cache of its own, then graded again from it: the warm grade's
// report is the cold one's, stories and pictures included (a cache that cannot be stale).
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { SOLUTION_DIR } from "../paths.js";
import type { CheckReport } from "../report/report.js";
import pc from "picocolors";
import stringWidth from "string-width";
import { pictureLines } from "../report/picture-lines.js";
import { dir as tempDir } from "tmp-promise";
import { allStories, buggyFixtures, cacheEnv, checkOf, deliverablesCached, composeTarget, expectedExit, grade, gradeInTerminal, type Fixture, notPassed, notPassedWhy, prose, sameGrade, titlesShown, type GradeRun } from "./support/grade.js";

const fixtures = buggyFixtures();

// Fixtures are graded two at a time (maxConcurrency, project `fixtures` in vitest.config.ts),
// each in one of two slots. Every fixture of a slot is graded in the same target folder, one
// after the other, and its printed commands run with one verdict cache that the slot's fixtures'
// commands share, as one student's commands share theirs (a verdict is kept under the target's
// name, which a replay command holds): a command that grades a check with the deliverables it
// builds on (Phase 1 under a check of Phase 2) takes their verdicts from there once a command
// graded the same files.
let suite: string;
const freeSlots = [0, 1];
beforeAll(async () => {
  const folder = await tempDir({ unsafeCleanup: true });
  suite = folder.path;
  return () => folder.cleanup();
});

describe.concurrent("buggy fixtures", () => {
  test.each(fixtures)("$name loses exactly the checks it breaks, and graded again from the cache gets the same report; its first failure's command, run as printed, fails the same way, and passes on the reference's file", async (fixture) => {
    const slot = freeSlots.shift();
    if (slot === undefined) throw new Error("more fixtures graded at once than there are slots: maxConcurrency is above 2");
    try {
      await gradedInSlot(slot, fixture);
    } finally {
      freeSlots.push(slot);
    }
  });
});

/** Grades the fixture `dir` in slot `slot`'s target folder and checks what the test's title says. */
async function gradedInSlot(slot: number, { dir, fails, only, says }: Fixture): Promise<void> {
  const target = await composeTarget(dir, { at: path.join(suite, `target-${slot}`) });
  const cacheHome = await tempDir({ unsafeCleanup: true });
  try {
    // A fixture graded in full is graded under a real terminal of 60 columns, then shown again
    // at 80 and 120 from the verdict cache: no line wider than the terminal, no title cut.
    const run = only.length > 0 ? await grade(target.path, ["--cache", ...only], undefined, cacheEnv(cacheHome.path)) : await gradeInTerminal(target.path, [], { columns: 60, cacheHome: cacheHome.path });
    if (only.length === 0) {
      fitsTerminal(run, 60);
      for (const columns of [80, 120]) {
        const shown = await gradeInTerminal(target.path, [], { columns, cacheHome: cacheHome.path });
        expect(shown.report!.deliverables.every((d) => d.cached), shown.stdout).toBe(true);
        expect(sameGrade(shown.report!)).toEqual(sameGrade(run.report!));
        fitsTerminal(shown, columns);
      }
    } else {
      // A deliverable whose check met a time limit (the machine may have been busy) is not stored, and is graded again.
      const stored = deliverablesCached(cacheHome.path);
      const warm = await grade(target.path, ["--cache", ...only], undefined, cacheEnv(cacheHome.path));
      expect(warm.report!.deliverables.filter((d) => d.cached).map((d) => d.id).sort(), warm.stdout).toEqual(stored);
      expect(sameGrade(warm.report!)).toEqual(sameGrade(run.report!));
      expect(warm.exitCode).toBe(run.exitCode);
    }
    const report = run.report!;
    expect(run.exitCode).toBe(expectedExit(report, fails, only));
    expect(notPassed(report), JSON.stringify(notPassedWhy(report), null, 1)).toEqual([...fails].sort());
    for (const d of report.deliverables.filter((d) => d.status === "graded")) {
      const lost = d.checks.some((c) => fails.includes(c.id));
      expect(d.points < d.maxPoints).toBe(lost);
    }
    for (const c of report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "failed")) {
      expect(c.replay).toMatch(/^npm run grade -- --target \S+ --only \S+ --seed \d+/);
      expect(c.message).not.toContain(target.path);
      expect(c.message).not.toMatch(/\/(dev\/shm|tmp|work)\//);
    }
    if (says) expect(allStories(report)).toContain(says);
    const first = report.deliverables.flatMap((d) => d.checks).find((c) => c.status === "failed");
    expect(first === undefined).toBe(fails.length === 0);
    if (first) await runsAsPrinted(first, { target: target.path, fixture: dir, cacheHome: path.join(suite, `printed-${slot}`) });
  } finally {
    await Promise.all([target.cleanup(), cacheHome.cleanup()]);
  }
}

/** No line of what a grade showed (each redraw of a line too) is wider than the terminal's `columns`, and no title is cut (titlesShown). */
function fitsTerminal(run: GradeRun, columns: number): void {
  const lines = run.stdout.split(/[\r\n]/);
  expect(Math.max(...lines.map((l) => stringWidth(l))), run.stdout).toBeLessThanOrEqual(columns);
  const shown = prose(run.stdout);
  for (const title of titlesShown(run.report!)) expect(shown).toContain(title);
}

/**
 * Runs a failed check's printed command as printed: a replay says the case still fails, with the
 * check's story (exit 1), and a command that grades the check fails it with the same story. Then,
 * with the fixture's files replaced by the reference's, the same command says the case passes
 * (a replay: no tick, points or score) or passes the check (exit 0).
 * Both run with the verdict cache in `cacheHome`, as a student's do, which every fixture's commands
 * share. The first may take from it the verdicts of the deliverables the check builds on whose
 * files are the reference's (Phase 1's, under a check of Phase 2), never its own deliverable's,
 * whose file is the fixture's: that one is graded, as the test asserts. On the reference's files,
 * the same command may take every verdict from an earlier fixture's run of it on the same files.
 */
async function runsAsPrinted(check: CheckReport, { target, fixture, cacheHome }: { target: string; fixture: string; cacheHome: string }): Promise<void> {
  const args = check.replay!.replace(/^npm run grade -- /, "").split(" ");
  const replay = args.includes("--replay") ? args.at(-1)! : null;
  const asPrinted = () => grade(null, ["--cache", ...args], undefined, cacheEnv(cacheHome));
  const again = await asPrinted();
  expect(again.report?.deliverables.find((d) => d.checks.some((c) => c.id === check.id))?.cached ?? false, `${check.id}'s deliverable is graded, not taken from the cache`).toBe(false);
  expect(again.exitCode, again.stdout + again.stderr).toBe(1);
  // Compared without white space: a word longer than a line (a long JSON value) is broken inside itself.
  // A replay draws the failure's picture, as the grade drew it (piped: 80 columns, no colour), above the story.
  const picture = check.picture ? pictureLines(check.picture, { width: 80, indent: 2, c: pc.createColors(false) }).join("\n") : "";
  if (replay) expect(unspaced(again.stdout)).toBe(unspaced(`Replayed one case of ${check.id} (--replay ${replay}): it still fails. ${picture} ${check.message!}`));
  else expect(checkOf(again.report, check.id)).toMatchObject({ status: "failed", message: check.message });
  for (const name of fs.readdirSync(fixture).filter((n) => n.endsWith(".ts"))) fs.copyFileSync(path.join(SOLUTION_DIR, name), path.join(target, name));
  const fixed = await asPrinted();
  expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
  if (replay) {
    expect(unspaced(fixed.stdout).startsWith(unspaced(`Replayed one case of ${check.id} (--replay ${replay}): this case passes now.`)), fixed.stdout).toBe(true);
    expect(fixed.stdout).not.toMatch(/✓|Score|\d+\/\d+/);
  } else expect(checkOf(fixed.report, check.id)?.status).toBe("passed");
}

/** A text without its white space (and without the " \\" that continues a command on the next line). */
function unspaced(text: string): string {
  return text.replace(/ \\\n/g, " ").replace(/\s+/g, "");
}
