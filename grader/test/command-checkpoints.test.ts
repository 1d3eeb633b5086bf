// Checkpoints written with programs, through the sandbox as Phase 1 and the power-loss checks
// record and crash them: a synced temp renamed by `mv` is atomic and durable (a regression test:
// the grader once recorded mv's rename as a rewrite of the checkpoint), and `cp` onto the
// checkpoint is torn, with a story that names the command in the target's own words.
import { describe, expect, test } from "vitest";
import { findMark } from "../crash/cuts.js";
import { NONE, crashSetting, recordWindow, type OldState } from "../checks/phase1/crash-window.js";
import { storyOf } from "../report/finding-story.js";
import { powerCuts } from "../checks/power-loss/power-window.js";
import { missingStep } from "../crash/power-loss.js";
import { load, loadWrong } from "../grading/calls.js";
import type { JsonState } from "../grading/states.js";
import type { Sandbox } from "../sandbox/supervisor/host-client.js";
import { sandboxOver, scratchHost } from "./support/host.js";

const host = scratchHost();

const LOAD = `export function loadCheckpoint(path: string): unknown {
  try { return JSON.parse(fs.readFileSync(path, "utf8")); }
  catch (error) { if ((error as NodeJS.ErrnoException).code === "ENOENT") return null; throw error; }
}`;

const MV = `import fs from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
export function atomicCheckpoint(path: string, state: unknown): void {
  const tmp = path + "." + process.pid + ".tmp";
  const fd = fs.openSync(tmp, "w");
  fs.writeFileSync(fd, JSON.stringify(state));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  execFileSync("mv", ["-f", tmp, path]);
  const dir = fs.openSync(dirname(path), "r");
  fs.fsyncSync(dir);
  fs.closeSync(dir);
}
${LOAD}`;

const CP = `import fs from "node:fs";
import { execFileSync } from "node:child_process";
export function atomicCheckpoint(path: string, state: unknown): void {
  const tmp = path + "." + process.pid + ".tmp";
  fs.writeFileSync(tmp, JSON.stringify(state));
  execFileSync("cp", [tmp, path]);
  fs.unlinkSync(tmp);
}
${LOAD}`;

/** The first crash state (process crashes, or power cuts with `power`) of atomicCheckpoint(old → next) whose load is neither state, told as a story; null when there is none. */
async function firstTorn(box: Sandbox, old: OldState, next: JsonState, options: { power: boolean }): Promise<string | null> {
  const w = await recordWindow(box, old, next);
  if (typeof w === "string") throw new Error(w);
  const end = findMark(w.trace, "return:atomicCheckpoint", w.start) - 1;
  const cuts = options.power ? powerCuts(w.trace, w.start, end) : w.cuts;
  const outcomes = await box.runMany("checkpoint", w.traceId, cuts, [load()]);
  for (const [i, { results }] of outcomes.entries()) {
    const wrong = loadWrong(results[0]!, w.allowed);
    if (wrong) return storyOf({ setting: await crashSetting(box, w, cuts[i]!), wrong });
  }
  if (options.power) expect(missingStep(w.trace, w.start, end)).toBeNull();
  return null;
}

describe.concurrent("checkpoints written with programs", () => {
  test("a synced temp renamed with mv, then the folder synced, survives every crash and every power cut inside atomicCheckpoint", async () => {
    const box = await sandboxOver(host, { name: "mv", module: "checkpoint", source: MV });
    try {
      for (const old of [{ step: 1 }, NONE] as OldState[]) {
        expect(await firstTorn(box, old, { step: 2, notes: ["a", "b"] }, { power: false })).toBeNull();
        expect(await firstTorn(box, old, { step: 2, notes: ["a", "b"] }, { power: true })).toBeNull();
      }
    } finally {
      await box.close();
    }
  });

  test("cp onto the checkpoint is torn by a crash inside cp, and the story names cp with the checkpoint's own relative names", async () => {
    const box = await sandboxOver(host, { name: "cp", module: "checkpoint", source: CP });
    try {
      const story = await firstTorn(box, { step: 1 }, { step: 2 }, { power: false });
      expect(story).toMatch(/killed inside `cp checkpoint\.json\.\*\.tmp checkpoint\.json`: checkpoint\.json had \d+ of 10 bytes/);
      expect(story).not.toContain(host.work);
      expect(story).not.toContain("it left .");
    } finally {
      await box.close();
    }
  });
});
