// What the check-deadline tests share: a rubric with a short `checkMs`, and processes that keep
// every processor busy (the soak's own).
import fs from "node:fs";
import path from "node:path";
import { loadRubric } from "../../rubric.js";

export { keepProcessorsBusy } from "../../tools/soak/busy.js";

/** Writes the repository's rubric with `checkMs` (and `callMs`, when given) changed into `folder`; returns its path. */
export function rubricWithCheckMs(folder: string, limits: { checkMs: number; callMs?: number }): string {
  const rubric = loadRubric();
  const file = path.join(folder, "rubric.json");
  fs.writeFileSync(file, JSON.stringify({ ...rubric, limits: { ...rubric.limits, ...limits } }));
  return file;
}
