// The two ends of the scale: the reference earns every point, the untouched starter earns none.
// The reference's full grade is piped, as a course's runner reads it: its lines are checked here too.
import { execa } from "execa";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { readReport } from "../report/read-report.js";
import { notStartedLine } from "../report/not-started.js";
import { LAUNCH, comparable, composeTarget, grade, plainScoreboard, prose } from "./support/grade.js";

describe.concurrent("grading the repository's own targets", () => {
  test("piped, the reference's full grade earns every point and exits 0; it prints one plain line per deliverable as it finishes, then the scoreboard, with no control character; its report says each check's and each deliverable's wall time and crash states, within the grade's own", async () => {
    const out = await dir({ unsafeCleanup: true });
    const json = path.join(out.path, "report.json");
    try {
      // As a pipe is by default: no colour asked for either way.
      const env = { ...process.env };
      delete env.FORCE_COLOR;
      delete env.NO_COLOR;
      const run = await execa(process.execPath, [LAUNCH, "--target", SOLUTION_DIR, "--no-cache", "--json", json], { cwd: REPO_ROOT, reject: false, env, extendEnv: false, stripFinalNewline: false });
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      const report = readReport(json);
      for (const d of report.deliverables.filter((d) => d.status === "graded")) {
        expect(d.checks.filter((c) => c.status !== "passed").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
        expect(d.points).toBe(d.maxPoints);
      }
      expect([report.score, report.maxScore, report.bonus, report.maxBonus]).toEqual([100, 100, 50, 50]);
      expect(report.deliverables.filter((d) => d.status !== "graded").map((d) => d.id)).toEqual([]);
      // The stretch goal's comparison of the two checkpoints: measured, shown, never scored.
      const comparison = report.deliverables.find((d) => d.id === "stretch-git")?.measurements?.[0];
      expect(comparison?.columns).toEqual(["runner.ts", "git-checkpoint.ts"]);
      expect(comparison?.rows.filter((r) => r.label.startsWith("recovered")).map((r) => r.cells)).toEqual([
        ["4 of 4", "4 of 4"],
        ["4 of 4", "4 of 4"],
        ["– (a rename is atomic)", "4 of 4"],
        ["4 of 4", "4 of 4"],
      ]);
      // Each check's and deliverable's time and crash states, within the grade's own.
      for (const d of report.deliverables) {
        expect(d.crashStates).toBe(d.checks.reduce((n, c) => n + c.crashStates, 0));
        expect(d.durationMs).toBeGreaterThan(0);
        expect(d.durationMs).toBeLessThanOrEqual(report.stats.durationMs);
        for (const c of d.checks) {
          expect(c.durationMs).toBeGreaterThan(0);
          expect(c.durationMs).toBeLessThanOrEqual(d.durationMs!);
        }
      }
      expect(report.deliverables.reduce((n, d) => n + d.crashStates!, 0)).toBe(report.stats.crashStates);
      expect(report.stats.crashStates).toBeGreaterThan(500);
      // What a pipe shows: a line per deliverable as it finishes, then the scoreboard as the report renders it.
      const stdout = String(run.stdout);
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      const [progress, ...rest] = stdout.split("\n\n");
      const lines = progress!.split("\n");
      // Each title whole: a pipe has no width to cut it to.
      expect(lines.map((line) => line.split(" · ")[0]!).sort()).toEqual(report.deliverables.map((d) => d.title).sort());
      for (const l of lines) expect(l).toMatch(/ · \d+\/\d+( \(bonus\))? · at [\d.]+\u00a0s$/);
      expect(rest.join("\n\n").trimEnd()).toBe(plainScoreboard(report, stdout));
      expect(stdout).toContain("File checkpoint vs git checkpoint (reported, not scored)");
      expect(stdout).toContain("Score 100/100");
    } finally {
      await out.cleanup();
    }
  });

  test("a grade with --only says it is partial: no Score line, the points graded of the lab's whole, and each deliverable graded in part says so", async () => {
    const run = await grade("solution", ["--only", "power-loss"]);
    expect(run.exitCode).toBe(0);
    expect(run.report!.partial).toEqual({ only: ["power-loss"], maxScore: 100, maxBonus: 50 });
    // Phase 1's checks that power-loss builds on were graded (crash-safety, crash-schedules, and what they build on), and only those.
    expect(run.report!.deliverables.map((d) => [d.id, d.maxPoints, d.partial?.maxPoints])).toEqual([["phase1", 27, 35], ["power-loss", 10, undefined]]);
    expect(run.report!.deliverables[0]!.checks.map((c) => c.id)).toEqual(["phase1.round-trip", "phase1.crash-safety", "phase1.stale-temp", "phase1.crash-schedules"]);
    expect(run.stdout).not.toMatch(/^Score /m);
    expect(run.stdout).toContain("  27 of its 35 points were graded here\n");
    expect(prose(run.stdout)).toMatch(/ Partial grade \(--only power-loss\): 27 of 100 core points and 10 of 50 bonus points graded here; earned 27 and 10; npm run grade -- --target solution gives the grade · /);
  });

  test("the starter (the default target) earns 0, exits 1, and prints one line per deliverable saying what is not implemented", async () => {
    const run = await grade(null);
    expect(run.exitCode).toBe(1);
    expect(run.report!.score).toBe(0);
    expect(run.report!.target).toBe("starter");
    // Every file is known not started from one call of each function: no check runs, no crash state is checked.
    expect(run.report!.stats.crashStates).toBe(0);
    const checks = run.report!.deliverables.flatMap((d) => d.checks);
    expect(checks.length).toBeGreaterThan(0);
    for (const c of checks) {
      expect(c.points).toBe(0);
      // A check built on another deliverable's check that failed is not run: it says which one.
      expect(c.message).toMatch(c.status === "blocked" ? /^Scored only once (\S+ passes; fix that|\S+( and \S+)+ pass; fix those) first\./ : /^Not run: \S+\.ts is not started: .*not implemented yet/);
      expect(c.message).not.toMatch(/ at .*\.(ts|js):\d+/); // no stack trace
    }
    expect(run.report!.deliverables.find((d) => d.id === "stretch-diff")?.checks.map((c) => c.id)).toEqual(["stretch-diff.first-step", "stretch-diff.paths", "stretch-diff.two-prompts"]);
    expect(run.report!.deliverables.find((d) => d.id === "stretch-git")?.checks.map((c) => c.id)).toEqual(["stretch-git.commits", "stretch-git.crash-recovery", "stretch-git.killed-in-commit", "stretch-git.crash-schedules"]);
    // Day one: each deliverable is one line that says what is not implemented, with no story per check.
    const graded = run.report!.deliverables.filter((d) => d.status === "graded");
    expect(graded.filter((d) => !d.notStarted).map((d) => d.id)).toEqual([]);
    for (const d of graded) expect(prose(run.stdout), d.id).toContain(`${d.title} 0/${d.maxPoints}${d.kind === "bonus" ? " (bonus)" : ""} – ${notStartedLine(d.notStarted!)} `);
    expect(run.stdout).not.toMatch(/replay:|It also fails on its own/);
    // The scoreboard, after the plain progress lines (one a deliverable) that come before it when not on a terminal.
    const scoreboard = run.stdout.slice(run.stdout.indexOf("Checkpoint lab: grading"));
    expect(run.stdout.slice(0, run.stdout.indexOf("Checkpoint lab: grading")).trim().split("\n")).toHaveLength(graded.length);
    expect(scoreboard.split("\n").length).toBeLessThan(45);
    // Deliverables with no checks yet are listed as such, and only those.
    const notGraded = run.report!.deliverables.filter((d) => d.status === "not-graded");
    expect(run.stdout.split("not graded yet").length - 1).toBe(notGraded.length);
  });

  test("a copy of the solution outside the repository is graded exactly like solution/", async () => {
    const outside = await composeTarget();
    try {
      const [inside, copy] = await Promise.all([grade("solution", ["--only", "phase1"]), grade(outside.path, ["--only", "phase1"])]);
      expect(copy.exitCode).toBe(0);
      expect(comparable(copy.report!)).toEqual(comparable(inside.report!));
      expect(copy.stdout).not.toMatch(new RegExp(`(^|[\\s"'])${outside.path}`));
    } finally {
      await outside.cleanup();
    }
  });
});
