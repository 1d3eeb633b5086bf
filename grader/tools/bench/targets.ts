// The speed targets `npm run bench` is held to, each judged from the bench's own numbers: what
// was wanted, what was measured, and whether it was met. Printed last, and kept in --json.
import os from "node:os";
import { defaultJobs } from "../batch/load.js";

/** The part of the bench's result the targets read. */
export interface BenchNumbers {
  /** Null when the full grades were not measured (`--skip grade`). */
  gradeSeconds: number | null;
  /** The untouched starter's cold grade; null with `--skip grade`. */
  starterGradeSeconds: number | null;
  /** The cold grade of the starter with the reference's checkpoint.ts (Phase 1 done, the rest not started); null with `--skip grade`. */
  phase1DoneGradeSeconds: number | null;
  crashStatesPerSecond: number;
  bySize: { bytes: number; ofLimit: number }[];
  /** `remainingSteps`: how many steps a sampled crash state's recovery had left to run, on average. */
  bySteps: { steps: number; msPerState: number; remainingSteps: number }[];
  batch: { jobs: number; gradesPerMinute: number }[];
}

/** One target as judged: `got` is null when the bench did not measure what it needs. */
export interface JudgedTarget {
  name: string;
  wanted: string;
  got: string | null;
  met: boolean;
}

interface Target {
  judge(numbers: BenchNumbers): JudgedTarget;
}

const MiB = 1024 * 1024;

function target(name: string, wanted: string, measure: (n: BenchNumbers) => { got: string; met: boolean } | null): Target {
  return {
    judge(numbers) {
      const m = measure(numbers);
      return { name, wanted, got: m?.got ?? null, met: m?.met ?? false };
    },
  };
}

/** A time that must be at most `limit` seconds; not measured when `read` gives null. */
function secondsAtMost(name: string, limit: number, read: (n: BenchNumbers) => number | null): Target {
  return target(name, `at most ${limit} s`, (n) => {
    const seconds = read(n);
    return seconds === null ? null : { got: `${seconds.toFixed(1)} s`, met: seconds <= limit };
  });
}

function ofLimitAt(bytes: number): (n: BenchNumbers) => { got: string; met: boolean } | null {
  return (n) => {
    const row = n.bySize.find((s) => s.bytes === bytes);
    return row ? { got: `${Math.round(row.ofLimit * 100)}%`, met: row.ofLimit >= 0.5 } : null;
  };
}

export const TARGETS: Target[] = [
  secondsAtMost("cold full grade of the solution", 10, (n) => n.gradeSeconds),
  secondsAtMost("cold grade of the untouched starter", 2, (n) => n.starterGradeSeconds),
  secondsAtMost("cold grade with Phase 1 done, the rest not started", 5, (n) => n.phase1DoneGradeSeconds),
  target("engine", "at least 2,500 crash states/s", (n) => ({ got: `${Math.round(n.crashStatesPerSecond)}/s`, met: n.crashStatesPerSecond >= 2500 })),
  target("1 MiB states", "at least 50% of the bare work's rate", ofLimitAt(MiB)),
  target("10 MiB states", "at least 50% of the bare work's rate", ofLimitAt(10 * MiB)),
  // A recovery runs the task's remaining steps, so its cost grows with them; what must not grow is
  // the cost of each such step (10 to 100 steps against 100 to 1,000: the fixed cost cancels).
  target("a 1,000-step task", "each step a recovery runs costs from 100 to 1,000 steps at most 1.25x what it costs from 10 to 100", (n) => {
    const [ten, hundred, thousand] = [10, 100, 1000].map((steps) => n.bySteps.find((s) => s.steps === steps));
    if (!ten || !hundred || !thousand) return null;
    const perStep = (a: typeof ten, b: typeof ten) => (b.msPerState - a.msPerState) / (b.remainingSteps - a.remainingSteps);
    const [low, high] = [perStep(ten, hundred), perStep(hundred, thousand)];
    const ratio = high / low;
    return { got: `${(high * 1000).toFixed(0)} µs against ${(low * 1000).toFixed(0)} µs a step: ${ratio.toFixed(2)}x (per crash state ${(thousand.msPerState / hundred.msPerState).toFixed(1)}x)`, met: ratio <= 1.25 };
  }),
  target("grade-batch's default --jobs", "within 10% of the best grades per minute", (n) => {
    const jobs = defaultJobs(os.availableParallelism());
    const chosen = n.batch.find((b) => b.jobs === jobs);
    const best = Math.max(...n.batch.map((b) => b.gradesPerMinute));
    if (!chosen || !Number.isFinite(best)) return null;
    return { got: `--jobs ${jobs}: ${Math.round((chosen.gradesPerMinute / best) * 100)}% of the best`, met: chosen.gradesPerMinute >= 0.9 * best };
  }),
];

/** One line per target: "met", "missed" or "not measured", what was wanted and what was got. */
export function targetLines(judged: JudgedTarget[]): string[] {
  return judged.map((t) => `${t.got === null ? "not measured" : t.met ? "met   " : "missed"}  ${t.name}: ${t.wanted}; got ${t.got ?? "nothing"}`);
}
