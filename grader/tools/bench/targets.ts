// The speed targets `npm run bench` is held to, each judged from the bench's own numbers: what
// was wanted, what was measured, and whether it was met. Printed last, and kept in --json.
import os from "node:os";
import { defaultJobs } from "../batch/load.js";

/** The part of the bench's result the targets read. */
export interface BenchNumbers {
  /** Null when the full grades were not measured (`--skip grade`). */
  gradeSeconds: number | null;
  crashStatesPerSecond: number;
  bySize: { bytes: number; ofLimit: number }[];
  bySteps: { steps: number; msPerState: number }[];
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

function ofLimitAt(bytes: number): (n: BenchNumbers) => { got: string; met: boolean } | null {
  return (n) => {
    const row = n.bySize.find((s) => s.bytes === bytes);
    return row ? { got: `${Math.round(row.ofLimit * 100)}%`, met: row.ofLimit >= 0.5 } : null;
  };
}

export const TARGETS: Target[] = [
  target("cold full grade of the solution", "at most 10 s", (n) => (n.gradeSeconds === null ? null : { got: `${n.gradeSeconds.toFixed(1)} s`, met: n.gradeSeconds <= 10 })),
  target("engine", "at least 2,500 crash states/s", (n) => ({ got: `${Math.round(n.crashStatesPerSecond)}/s`, met: n.crashStatesPerSecond >= 2500 })),
  target("1 MiB states", "at least 50% of the bare work's rate", ofLimitAt(MiB)),
  target("10 MiB states", "at least 50% of the bare work's rate", ofLimitAt(10 * MiB)),
  target("a 1,000-step task", "at most 5x the 100-step task's time per crash state", (n) => {
    const [hundred, thousand] = [100, 1000].map((steps) => n.bySteps.find((s) => s.steps === steps)?.msPerState);
    if (hundred === undefined || thousand === undefined) return null;
    const ratio = thousand / hundred;
    return { got: `${ratio.toFixed(1)}x`, met: ratio <= 5 };
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
