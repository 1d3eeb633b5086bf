// What `grade-batch` does for a class on this machine: grades per minute over copies of the
// solution, with 1, 2 and 4 grades at a time, so its default (--jobs) can be checked against the best.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT, SOLUTION_DIR } from "../../paths.js";
import { steadyNow } from "../../steady-clock.js";

export interface BatchThroughput {
  jobs: number;
  submissions: number;
  seconds: number;
  gradesPerMinute: number;
}

/** Grades `submissions` copies of the solution with `npm run grade-batch` of the repository at `root` (this one by default), once for each `--jobs` value in `jobsList`. */
export async function batchThroughput(work: string, jobsList: number[], submissions: number, { root = REPO_ROOT }: { root?: string } = {}): Promise<BatchThroughput[]> {
  const folder = path.join(work, "batch-submissions");
  for (let i = 1; i <= submissions; i++) fs.cpSync(SOLUTION_DIR, path.join(folder, `student-${i}`), { recursive: true });
  const measured: BatchThroughput[] = [];
  for (const jobs of jobsList) {
    const out = path.join(work, `batch-${jobs}.csv`);
    const started = steadyNow();
    await execa("npm", ["run", "--silent", "grade-batch", "--", folder, "--out", out, "--jobs", String(jobs)], { cwd: root });
    const seconds = (steadyNow() - started) / 1000;
    measured.push({ jobs, submissions, seconds, gradesPerMinute: (submissions / seconds) * 60 });
  }
  return measured;
}
