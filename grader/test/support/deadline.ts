// What the check-deadline tests share: a rubric with a short `checkMs`, a copy of the solution
// whose loads take time, and processes that keep every processor busy (the soak's own).
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { SOLUTION_DIR } from "../../paths.js";
import { loadRubric } from "../../rubric.js";

export { keepProcessorsBusy } from "../../tools/soak/busy.js";

/** Writes the repository's rubric with `checkMs` (and `callMs`, when given) changed into `folder`; returns its path. */
export function rubricWithCheckMs(folder: string, limits: { checkMs: number; callMs?: number }): string {
  const rubric = loadRubric();
  const file = path.join(folder, "rubric.json");
  fs.writeFileSync(file, JSON.stringify({ ...rubric, limits: { ...rubric.limits, ...limits } }));
  return file;
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
