// The stories buggy fixtures get, read for what they claim: each run told as its own run, a
// crash named in the task's steps, only what happened told as done, one spelling per file.
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { checkOf, composeTarget, grade } from "./support/grade.js";

/** The message of `check` when the fixture `fixture` is graded on it alone. */
async function story(fixture: string, check: string): Promise<string> {
  const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", fixture));
  try {
    const run = await grade(target.path, ["--only", check]);
    const found = checkOf(run.report, check)!;
    expect(found.status).toBe("failed");
    return found.message!;
  } finally {
    await target.cleanup();
  }
}

describe.concurrent("stories that say only what happened", () => {
  test("a runner that runs a step again after the task was done: each later run is told as its own run, with its own calls", async () => {
    const text = await story("phase2/rerun-after-done", "phase2.finished");
    expect(text).toMatch(/in a new process each time: run 2 \(no maxSteps\) called runStep\(\d+\)(, runStep\(\d+\))*; run 3 \(maxSteps 3\) called runStep\(\d+\)/);
    expect(text).not.toMatch(/a new process ran runTask again on the finished checkpoint, and it called/);
  });

  test("a runner that checkpoints a step before running it: killed right after that checkpoint, the story says before step 1 started, and that step 1 never ran", async () => {
    const text = await story("phase2/commit-before-step", "phase2.boundary-crash");
    expect(text).toMatch(/^Run 1 was killed before step 1 started \(right after \w+/);
    expect(text).toMatch(/Run 2, a new process, then ran runTask to the end: step 1 never ran \(the record holds steps 2, 3/);
  });

  test("a temp name that a restarted process draws again: the story tells the writes that happened as done, the one that failed as tried, and spells the temp one way", async () => {
    const text = await story("phase1/counter-temp-name", "phase1.stale-temp");
    expect(text).toMatch(/The next process \(with the same process id, as a restarted container gets\) loaded, wrote \S+ and loaded it back, then tried to write again the state it was writing when it crashed: atomicCheckpoint/);
    const temps = new Set(text.match(/\.?checkpoint\.json\.[^\s"')]*\.tmp/g));
    expect([...temps]).toHaveLength(1);
    expect([...temps][0]).toContain("*");
  });

  test("a history read in the order of its file names: the element out of place is said to be another step's state, and which", async () => {
    const text = await story("stretch-diff/sorted-by-name", "stretch-diff.two-prompts");
    expect(text).toMatch(/returned 10 states, and its element 1 is not the task's state after step 2: it is the state after step 10\./);
  });
});

