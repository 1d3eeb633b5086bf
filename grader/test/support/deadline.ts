// What the check-deadline tests share: a rubric with a short `checkMs`, and processes that keep
// every processor busy.
import { execa, type ResultPromise } from "execa";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadRubric } from "../../rubric.js";

/** Writes the repository's rubric with `checkMs` (and `callMs`, when given) changed into `folder`; returns its path. */
export function rubricWithCheckMs(folder: string, limits: { checkMs: number; callMs?: number }): string {
  const rubric = loadRubric();
  const file = path.join(folder, "rubric.json");
  fs.writeFileSync(file, JSON.stringify({ ...rubric, limits: { ...rubric.limits, ...limits } }));
  return file;
}

/** Starts `perCore` processes per processor that spin until stopped: a machine kept busy by other work. */
export function keepMachineBusy(perCore: number): { stop: () => Promise<void> } {
  const spinners: ResultPromise[] = Array.from({ length: perCore * os.availableParallelism() }, () => execa(process.execPath, ["-e", "for (;;) {}"], { reject: false }));
  return {
    stop: async () => {
      for (const s of spinners) s.kill("SIGKILL");
      await Promise.all(spinners);
    },
  };
}
