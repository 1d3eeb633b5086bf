// The same target and seed give the same report, and a printed replay command reproduces its failure.
import path from "node:path";
import { describe, expect, test } from "vitest";
import fs from "node:fs";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { checkOf, comparable, composeTarget, grade, notPassed, prose } from "./support/grade.js";
import pc from "picocolors";
import { pictureLines } from "../report/picture-lines.js";

const FIXTURE = path.join("grader/fixtures/phase1/write-in-place");

describe("reproducibility", () => {
  test("the whole grade run twice gives identical verdicts, points and messages", async () => {
    const target = await composeTarget(path.join(REPO_ROOT, FIXTURE));
    try {
      // One after the other: two at once on two cores push the slowest checks (a failing one that
      // shrinks with real processes) toward their deadline, where what a check got through varies.
      const a = await grade(target.path);
      const b = await grade(target.path);
      expect(a.report).not.toBeNull();
      expect(a.report!.deliverables.filter((d) => d.status === "graded" && d.points < d.maxPoints).map((d) => d.id)).toEqual(["phase1", "power-loss", "concurrency", "disk-faults"]);
      expect(comparable(b.report!)).toEqual(comparable(a.report!));
    } finally {
      await target.cleanup();
    }
  });

  test("temp names drawn in the target (Math.random, a counter) give identical reports in two grades", async () => {
    for (const fixture of ["grader/fixtures/correct/math-random-temp", "grader/fixtures/phase1/counter-temp-name"]) {
      const target = await composeTarget(path.join(REPO_ROOT, fixture));
      try {
        // The checks where a temp name drawn in the target shows: a restart that meets a leftover, and two writers.
        const only = ["--only", "phase1.stale-temp", "--only", "concurrency.two-writers"];
        const [a, b] = await Promise.all([grade(target.path, only), grade(target.path, only)]);
        expect(a.report).not.toBeNull();
        expect(comparable(b.report!)).toEqual(comparable(a.report!));
      } finally {
        await target.cleanup();
      }
    }
  });

  test("a printed replay command, run as printed, says the case still fails with the same story (exit 1); on fixed code, that it passes, with no tick, points or score (exit 0)", async () => {
    const target = await composeTarget(path.join(REPO_ROOT, FIXTURE));
    try {
      const first = await grade(target.path, ["--only", "phase1.crash-safety"]);
      const check = first.report!.deliverables[0]!.checks.find((c) => c.id === "phase1.crash-safety")!;
      expect(check.status).toBe("failed");
      expect(check.replay).toMatch(/ --replay \S+$/);
      const args = check.replay!.replace(/^npm run grade -- /, "").split(" ");
      const replayed = await grade(null, args);
      expect(replayed.exitCode).toBe(1);
      // The failure's picture first (piped: 80 columns, no colour), as the grade drew it, then its story.
      const picture = check.picture ? pictureLines(check.picture, { width: 80, indent: 2, c: pc.createColors(false) }).join("\n") : "";
      expect(check.picture).toBeDefined();
      expect(prose(replayed.stdout)).toBe(prose(`Replayed one case of phase1.crash-safety (--replay ${args.at(-1)}): it still fails. ${picture} ${check.message!}`));
      expect(replayed.report!.partial?.replay).toBe(args.at(-1));
      fs.copyFileSync(path.join(SOLUTION_DIR, "checkpoint.ts"), path.join(target.path, "checkpoint.ts"));
      const fixed = await grade(null, args);
      expect(fixed.exitCode).toBe(0);
      expect(prose(fixed.stdout)).toBe(`Replayed one case of phase1.crash-safety (--replay ${args.at(-1)}): this case passes now. Other cases may still fail: grade the check with npm run grade -- --target ${args[1]} --only phase1.crash-safety --seed ${args[args.indexOf("--seed") + 1]}`);
      expect(fixed.stdout).not.toMatch(/✓|Score|\d+\/\d+/);
    } finally {
      await target.cleanup();
    }
  });

  test("a replay path that leads to no case, or a replay of a check with no cases to replay, says so in one sentence with the command to run instead (exit 2)", async () => {
    const bad = await grade(FIXTURE, ["--only", "phase1.crash-safety", "--replay", "0:7:7:7"]);
    expect(bad.exitCode).toBe(2);
    expect(prose(bad.stdout)).toBe(`The replay path 0:7:7:7 leads to no case of phase1.crash-safety on this code: it was mistyped, or printed for other code or another seed. Find its failures again with npm run grade -- --target ${FIXTURE} --only phase1.crash-safety --seed 20261129`);
    expect(bad.stdout + bad.stderr).not.toMatch(/ at |node_modules|\.ts:\d+/);
    // A path naming a property the check does not have (its part before the slash) leads to no case either.
    const named = await grade(FIXTURE, ["--only", "phase1.crash-safety", "--replay", "paused/0"]);
    expect(named.exitCode).toBe(2);
    expect(prose(named.stdout)).toBe(`The replay path paused/0 leads to no case of phase1.crash-safety on this code: it was mistyped, or printed for other code or another seed. Find its failures again with npm run grade -- --target ${FIXTURE} --only phase1.crash-safety --seed 20261129`);
    const none = await grade(FIXTURE, ["--only", "phase1.killed-process", "--replay", "0"]);
    expect(none.exitCode).toBe(2);
    expect(prose(none.stdout)).toBe(`phase1.killed-process has no cases to replay one by one: it runs the same cases every time. Grade it with npm run grade -- --target ${FIXTURE} --only phase1.killed-process --seed 20261129`);
  });

  test("a different seed is accepted and still fails the same bug", async () => {
    const run = await grade(FIXTURE, ["--only", "phase1.crash-safety", "--seed", "7"]);
    expect(run.report!.seed).toBe(7);
    expect(run.exitCode).toBe(1);
    // The check asked for is the one that fails (the check it requires passes), on the fixture's
    // bug: the checkpoint written in place, torn by a crash inside that write.
    expect(notPassed(run.report!)).toEqual(["phase1.crash-safety"]);
    const check = checkOf(run.report, "phase1.crash-safety")!;
    expect(check.status).toBe("failed");
    expect(check.message).toMatch(/^With the old checkpoint .* was killed .*writeFileSync\("checkpoint\.json"\)/);
    expect(check.replay).toMatch(/ --only phase1\.crash-safety --seed 7 --replay \d+$/);
  });
});
