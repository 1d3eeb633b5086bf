// The same target and seed give the same report, and a printed replay command reproduces its failure.
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { comparable, composeTarget, grade, notPassed } from "./support/grade.js";

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

  test("the replay command of a failure reproduces the same message", async () => {
    const first = await grade(FIXTURE, ["--only", "phase1.crash-safety"]);
    const check = first.report!.deliverables[0]!.checks.find((c) => c.id === "phase1.crash-safety")!;
    expect(check.status).toBe("failed");
    const args = check.replay!.replace(/^npm run grade -- /, "").split(" ");
    const target = args[args.indexOf("--target") + 1]!;
    const rest = args.filter((_, i) => i !== args.indexOf("--target") && i !== args.indexOf("--target") + 1);
    const replayed = await grade(path.resolve(REPO_ROOT, target), rest);
    const again = replayed.report!.deliverables[0]!.checks.find((c) => c.id === "phase1.crash-safety")!;
    expect(again.message).toBe(check.message);
  });

  test("a different seed is accepted and still fails the same bug", async () => {
    const run = await grade(FIXTURE, ["--only", "phase1.crash-safety", "--seed", "7"]);
    expect(run.report!.seed).toBe(7);
    expect(run.exitCode).toBe(1);
    // The check asked for is the one that fails (the check it requires passes), on the fixture's
    // bug: the checkpoint written in place, torn by a crash inside that write.
    expect(notPassed(run.report!)).toEqual(["phase1.crash-safety"]);
    const check = run.report!.deliverables.flatMap((d) => d.checks).find((c) => c.id === "phase1.crash-safety")!;
    expect(check.status).toBe("failed");
    expect(check.message).toMatch(/^With the old checkpoint .* was killed .*writeFileSync\("checkpoint\.json"\)/);
    expect(check.replay).toMatch(/ --only phase1\.crash-safety --seed 7 --replay \d+$/);
  });
});
