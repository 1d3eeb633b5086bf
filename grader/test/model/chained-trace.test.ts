// A crash state reached through an earlier crash, read as one trace (crash/chain.ts): the model of
// the chained trace holds, after each of the second process's operations, what the real disk held
// there when that process ran on what the first crash left (a torn write included).
import path from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { chainedTrace } from "../../crash/chain.js";
import { crashCuts } from "../../crash/cuts.js";
import { powerReplay } from "../../crash/power-loss.js";
import { replay } from "../../crash/replay.js";
import { programs, runProgram, type ProgramOptions } from "../support/fs-programs.js";
import { layScenario, listTree, ListingRecorder, propertyTest, recordingFs, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();
/** Two programs, one after the other, in the same folders: an absolute link would name the first one's. */
const OPTIONS: ProgramOptions = { absoluteSymlinks: false };

propertyTest(
  "the chained trace of a crash and the process after it models, after each of that process's operations, the disk it left",
  [programs(OPTIONS), programs(OPTIONS), fc.nat(), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 2 })],
  (first, second, pick, fractions) => {
    const root1 = layScenario(scratch.fresh("first"));
    const rec1 = new ListingRecorder(root1);
    runProgram(recordingFs(rec1).fs, path.join(root1, "work"), first, OPTIONS);
    const trace1 = rec1.trace();
    const cuts = crashCuts(trace1, 0, trace1.entries.length, fractions);
    const cut = cuts[pick % cuts.length]!;
    const root2 = layScenario(scratch.fresh("second"));
    replay(trace1, cut, root2);
    const rec2 = new ListingRecorder(root2);
    runProgram(recordingFs(rec2).fs, path.join(root2, "work"), second, OPTIONS);
    const { trace, offset } = chainedTrace([{ trace: trace1, cut }], rec2.trace());
    for (let k = 0; k <= trace.entries.length - offset; k++) {
      const modelled = layScenario(scratch.fresh("model"));
      // Everything kept: the model's disk as it stands (a process crash's).
      powerReplay(trace, { at: offset + k }, { data: "kept", names: "kept" }, modelled);
      expect(listTree(modelled, { modes: false }), `after ${k} of the second process's entries`).toEqual(stripModes(rec2.after(k)));
    }
  },
  40,
);

function stripModes(listing: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(listing).map(([p, v]) => [p, v.replace(/^(file|dir) \d+/, "$1")]));
}
