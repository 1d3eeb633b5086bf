// What the check-deadline tests share: a rubric with a short `checkMs`, a copy of the solution
// whose loads take time, and processes that keep every processor busy (the soak's own).
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { SOLUTION_DIR } from "../../paths.js";
import { loadRubric } from "../../rubric.js";
import type { Limits } from "../../sandbox/messages/limits.js";

import { keepProcessorsBusy } from "../../tools/soak/busy.js";
import { rubricWithLimits } from "./grade.js";

export { keepProcessorsBusy, rubricWithLimits };

/**
 * Spinning processes, `perCore` per processor to start with and more until a quarter of a second
 * of one thread's processor time takes at least `stretch` times as long in wall time, at most
 * `maxPerCore` per processor. Eight per processor stretch one thread about 9 times on the 2-core
 * VM of "How fast" (16 per processor, 17 times), and a grade's check about as much; in one CI
 * run, though, eight slowed that check only 3 times, too little for a test whose premise is that
 * the wall clock would have failed it. Throws when `maxPerCore` does not reach `stretch`.
 */
export async function keepProcessorsStretched(opts: { stretch: number; perCore: number; maxPerCore: number }): Promise<{ perCore: number; stretch: number; stop: () => Promise<void> }> {
  const started: { stop: () => Promise<void> }[] = [];
  const stop = async () => void (await Promise.all(started.map((b) => b.stop())));
  let perCore = 0;
  let measured = 0;
  try {
    for (let want = opts.perCore; want > perCore; want = Math.min(opts.maxPerCore, Math.ceil((perCore * opts.stretch) / measured))) {
      started.push(keepProcessorsBusy(want - perCore));
      perCore = want;
      await new Promise((resolve) => setTimeout(resolve, 500));
      measured = wallPerProcessorTime(250);
      if (measured >= opts.stretch) return { perCore, stretch: measured, stop };
    }
  } catch (error) {
    await stop();
    throw error;
  }
  await stop();
  throw new Error(`${perCore} spinning processes per processor stretched a thread's processor time only ${measured.toFixed(1)} times in wall time here, not the ${opts.stretch} times this test needs`);
}

/** Spins in this thread until it has used `cpuMs` of processor time; the wall time that took, divided by `cpuMs`. */
function wallPerProcessorTime(cpuMs: number): number {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 100_000; i++) x = (x + i) | 0;
    const used = process.cpuUsage(cpu);
    if ((used.user + used.system) / 1000 >= cpuMs) break;
  }
  if (x === 7) console.log(x);
  return (performance.now() - wall) / cpuMs;
}

/**
 * Copies the solution into `folder`/`name` with `statement` run first in every `loadCheckpoint`
 * call (still correct: it only takes time); returns the copy's path.
 */
export function solutionWithSlowLoads(folder: string, name: string, statement: string): string {
  const target = path.join(folder, name);
  fs.cpSync(SOLUTION_DIR, target, { recursive: true });
  const file = path.join(target, "checkpoint.ts");
  const source = fs.readFileSync(file, "utf8");
  const slow = source.replace(/export function loadCheckpoint[^(]*\([^)]*\)[^{]*\{/, (head) => `${head}\n  ${statement}`);
  expect(slow, "the solution's loadCheckpoint was not found to slow it").not.toBe(source);
  fs.writeFileSync(file, slow);
  return target;
}
