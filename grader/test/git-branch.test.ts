// The handout's rule for the git-backed runner's branch, as every stretch-git check applies it:
// exactly one commit per step, in order, each naming its step; only the first may name no step.
// (A correct runner whose first commit names no step is graded as grader/fixtures/correct/git-initial-commit.)
import { describe, expect, test } from "vitest";
import { judgeBranch, stepNamed } from "../checks/stretch-git/branch.js";

const steps = (n: number, name = (i: number) => `step ${i}`) => Array.from({ length: n }, (_, i) => name(i + 1));

describe("the branch of a git-backed run", () => {
  test("a commit names the first number after the word step, in any of the handout's spellings", () => {
    expect(["step 3", "Step #3 of 10", "after step-3", "STEP: 3"].map(stepNamed)).toEqual([3, 3, 3, 3]);
    expect(["initial state", "update journal", "steps", "3"].map(stepNamed)).toEqual([null, null, null, null]);
  });

  test("one commit per step, in order, passes with or without a first commit that names no step", () => {
    expect(judgeBranch(steps(10), 10)).toBeNull();
    expect(judgeBranch(["initial state", ...steps(10)], 10)).toBeNull();
    expect(judgeBranch(steps(10, (i) => `Step #${i} of 10`), 10)).toBeNull();
    expect(judgeBranch([], 0)).toBeNull();
    expect(judgeBranch(["initial state"], 0)).toBeNull();
  });

  test("a commit that names no step after the first fails, wherever it stands, and the message says which", () => {
    const journal = steps(10).flatMap((s) => [s, "update journal"]);
    expect(judgeBranch(journal, 10)).toBe(
      'the branch (git log --first-parent) holds 20 commits for 10 steps: after step 1\'s commit comes "update journal", which names no step; only the first commit may name no step',
    );
    expect(judgeBranch([...steps(10), "done"], 10)).toMatch(/after step 10's commit comes "done", which names no step/);
    expect(judgeBranch(["initial state", ".gitignore", ...steps(10)], 10)).toMatch(/after the first commit, "initial state", comes ".gitignore", which names no step/);
  });

  test("a step committed twice, out of order, missing, past the steps done, or named 0 fails with that commit named", () => {
    expect(judgeBranch(["step 1", "step 1", "step 2"], 2)).toMatch(/holds 3 commits for 2 steps: after step 1's commit comes "step 1", which names step 1 again/);
    expect(judgeBranch(["step 2", "step 1"], 2)).toMatch(/the first commit is "step 2", which names step 2; step 1 has no commit of its own/);
    expect(judgeBranch(steps(9), 10)).toMatch(/holds 9 commits for 10 steps: after step 9's commit it ends, and step 10 has no commit$/);
    expect(judgeBranch(["initial state"], 2)).toMatch(/after the first commit, "initial state", it ends, and steps 1 to 2 have no commit$/);
    expect(judgeBranch(steps(5), 4)).toMatch(/after step 4's commit comes "step 5", which names step 5, though the task had done 4 steps$/);
    expect(judgeBranch(["step 0 (initial state)", ...steps(3)], 3)).toMatch(/the first commit is "step 0 \(initial state\)", which names step 0; the steps are numbered from 1/);
  });
});
