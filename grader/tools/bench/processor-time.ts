// Where a grade's processor time goes: the processor time of a program the bench runs, with every
// process below it (the grader, its workers, the sandbox hosts, the programs the target ran), and
// each deliverable graded alone. Wall times of deliverables graded side by side overlap; processor
// time adds up, so this says which deliverable a faster grade must start with.
import { execa } from "execa";
import path from "node:path";
import { REPO_ROOT } from "../../paths.js";
import { processStat } from "../../sandbox/messages/proc-stat.js";
import { steadyNow } from "../../steady-clock.js";

/** The processor seconds (user and system) of this process's children that have ended and been waited for, or null where /proc is not there. */
export function endedChildrenSeconds(): number | null {
  const stat = processStat("self");
  return stat && stat.endedChildrenCpuMs / 1000;
}

/**
 * Runs `file args` to its end and returns its wall seconds and its processor seconds with its
 * descendants' (null where not measured); an exit code not in `exitCodes` (a grade that could not
 * run, or one of the solution that lost a point) is an error.
 */
export async function timedRun(file: string, args: string[], { env, exitCodes = [0], cwd = REPO_ROOT }: { env?: NodeJS.ProcessEnv; exitCodes?: number[]; cwd?: string } = {}): Promise<{ seconds: number; cpuSeconds: number | null }> {
  const cpuBefore = endedChildrenSeconds();
  const started = steadyNow();
  const run = await execa(file, args, { cwd, env, reject: false });
  const seconds = (steadyNow() - started) / 1000;
  const cpuAfter = endedChildrenSeconds();
  if (!exitCodes.includes(run.exitCode ?? -1)) throw new Error(`${path.basename(file)} ${args.join(" ")}: expected exit code ${exitCodes.join(" or ")}, got ${run.exitCode ?? run.signal}\n${run.stderr}`);
  return { seconds, cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/** Each deliverable of the solution graded alone (`--only`), once: its wall and processor seconds. */
export async function deliverablesAlone(work: string, ids: string[]): Promise<Record<string, { seconds: number; cpuSeconds: number | null }>> {
  const measured: Record<string, { seconds: number; cpuSeconds: number | null }> = {};
  for (const id of ids) {
    const json = path.join(work, `alone-${id}.json`);
    measured[id] = await timedRun(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", "solution", "--only", id, "--json", json, "--no-cache"]);
  }
  return measured;
}
