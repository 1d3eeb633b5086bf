// The speed targets `npm run bench` judges from its own numbers: each says met or missed from the
// measured value, and "not measured" when the bench has nothing to judge it by.
import os from "node:os";
import { expect, test } from "vitest";
import { TARGETS, targetLines, type BenchNumbers } from "../../tools/bench/targets.js";
import { defaultJobs } from "../../tools/batch/load.js";

const MiB = 1024 * 1024;
const jobs = defaultJobs(os.availableParallelism());

function numbers(over: Partial<BenchNumbers> = {}): BenchNumbers {
  return {
    gradeSeconds: 9.5,
    starterGradeSeconds: 1.9,
    phase1DoneGradeSeconds: 4.9,
    crashStatesPerSecond: 2600,
    bySize: [{ bytes: MiB, ofLimit: 0.6 }, { bytes: 10 * MiB, ofLimit: 0.5 }],
    // 1 ms a crash state, and 0.1 ms for each step its recovery runs: linear.
    bySteps: [{ steps: 10, msPerState: 1.5, remainingSteps: 5 }, { steps: 100, msPerState: 6, remainingSteps: 50 }, { steps: 1000, msPerState: 51, remainingSteps: 500 }],
    batch: [{ jobs, gradesPerMinute: 9.1 }, { jobs: jobs + 1, gradesPerMinute: 10 }],
    ...over,
  };
}

test("numbers at or beyond every target are judged met", () => {
  expect(TARGETS.map((t) => t.judge(numbers()).met)).toEqual(TARGETS.map(() => true));
});

test("each number just short of its target is judged missed, and only that target", () => {
  const short: Partial<BenchNumbers>[] = [
    { gradeSeconds: 10.1 },
    { starterGradeSeconds: 2.1 },
    { phase1DoneGradeSeconds: 5.1 },
    { crashStatesPerSecond: 2499 },
    { bySize: [{ bytes: MiB, ofLimit: 0.49 }, { bytes: 10 * MiB, ofLimit: 0.5 }] },
    { bySize: [{ bytes: MiB, ofLimit: 0.6 }, { bytes: 10 * MiB, ofLimit: 0.49 }] },
    // From 100 to 1,000 steps, 0.126 ms a step against 0.1: 1.26x.
    { bySteps: [{ steps: 10, msPerState: 1.5, remainingSteps: 5 }, { steps: 100, msPerState: 6, remainingSteps: 50 }, { steps: 1000, msPerState: 6 + 450 * 0.126, remainingSteps: 500 }] },
    { batch: [{ jobs, gradesPerMinute: 8.9 }, { jobs: jobs + 1, gradesPerMinute: 10 }] },
  ];
  expect(short).toHaveLength(TARGETS.length);
  short.forEach((over, i) => {
    const missed = TARGETS.map((t) => t.judge(numbers(over))).flatMap((j, k) => (j.met ? [] : [k]));
    expect(missed).toEqual([i]);
  });
});

test("a target the bench did not measure (no sizes, no default --jobs, the grades skipped) reads 'not measured', not met", () => {
  const judged = TARGETS.map((t) => t.judge(numbers({ bySize: [], batch: [{ jobs: jobs + 1, gradesPerMinute: 10 }], gradeSeconds: null, starterGradeSeconds: null, phase1DoneGradeSeconds: null })));
  const lines = targetLines(judged);
  expect(lines.filter((l) => l.startsWith("not measured"))).toHaveLength(6);
  expect(judged.filter((j) => j.got === null).every((j) => !j.met)).toBe(true);
});
