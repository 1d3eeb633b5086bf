// What the verdict cache saves a student: a full grade of a copy of the solution with a warm
// cache and nothing changed, and after editing runner.ts alone, each measured beside a cold grade.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT, SOLUTION_DIR } from "../../paths.js";
import { steadyNow } from "../../steady-clock.js";

export interface CacheCost {
  /** Seconds of each grade with nothing changed since the last, and after runner.ts changed. */
  unchanged: number[];
  runnerChanged: number[];
}

/** Grades a copy of the solution in `work` with the cache on: filled once, then `runs` times unchanged and `runs` times after an edit of runner.ts. */
export async function cacheCost(work: string, runs: number): Promise<CacheCost> {
  const target = path.join(work, "cache-target");
  fs.cpSync(SOLUTION_DIR, target, { recursive: true });
  // A cache of its own (its secret in a folder of its own), used as a student's own grades use theirs.
  const env = { CI: "", XDG_CACHE_HOME: path.join(work, "cache-home") };
  const grade = async () => {
    const started = steadyNow();
    await execa(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", target], { cwd: REPO_ROOT, env, reject: false });
    return (steadyNow() - started) / 1000;
  };
  await grade();
  const cost: CacheCost = { unchanged: [], runnerChanged: [] };
  for (let i = 0; i < runs; i++) {
    cost.unchanged.push(await grade());
    // An edit that changes the code (a comment would not): Phase 2 and Phase 3 compile runner.ts,
    // so they are graded again, and stretch-git's comparison runs it, so it is measured again.
    fs.appendFileSync(path.join(target, "runner.ts"), `\nif (process.env.LAB_BENCH_EDIT === "${i}") console.log("edited");\n`);
    cost.runnerChanged.push(await grade());
  }
  return cost;
}
