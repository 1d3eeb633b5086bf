// Replaying a whole trace rebuilds the disk the real calls left: random programs of file-system
// calls (temp files written whole, writes at offsets and appends, every open flag, truncations,
// fsyncs, renames of files and folders, removals, links) run through the recording fs in a
// scenario folder, and the trace they left, replayed into a fresh one, gives the same folder.
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { replay } from "../../crash/replay.js";
import { runProgram, programs, type Step } from "../support/fs-programs.js";
import { ListingRecorder, layScenario, listTree, propertyTest, recordingFs, scratchFolder } from "../support/model-fs.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";

const scratch = scratchFolder();

propertyTest(
  "replaying the whole trace of a program into an empty scenario folder leaves every path, byte and permission the real calls left, and the same names as one file",
  [programs()],
  (program) => {
    const root = layScenario(scratch.fresh("real"));
    const rec = new Recorder(root);
    runProgram(recordingFs(rec).fs, path.join(root, "work"), program);
    const trace = rec.trace();
    const copy = layScenario(scratch.fresh("replayed"));
    replay(trace, { at: trace.entries.length }, copy);
    expect(listTree(copy, { links: true })).toEqual(listTree(root, { links: true }));
  },
  120,
);

test("a program that makes, writes, fsyncs and renames a temp file over a file replays to that file alone", () => {
  const root = layScenario(scratch.fresh("real"));
  const rec = new Recorder(root);
  const steps = runProgram(recordingFs(rec).fs, path.join(root, "work"), [
    { kind: "writeFile", file: "b", data: "old", flag: "w" },
    { kind: "open", slot: 0, file: "a.tmp", flags: "wx" },
    { kind: "write", slot: 0, data: "new", position: null },
    { kind: "write", slot: 0, data: "N", position: 0 },
    { kind: "fsync", slot: 0 },
    { kind: "close", slot: 0 },
    { kind: "rename", from: "a.tmp", to: "b" },
  ]);
  expect(steps).toBe(7);
  const copy = layScenario(scratch.fresh("replayed"));
  replay(rec.trace(), { at: rec.trace().entries.length }, copy);
  expect(listTree(path.join(copy, "work"), { modes: false })).toEqual({ b: 'file "New"' });
});

test("the programs the property runs are not trivial: more than a quarter of them leave a file with content", () => {
  const samples = fc.sample(programs(), { seed: 7, numRuns: 50 });
  let withContent = 0;
  for (const program of samples) {
    const root = layScenario(scratch.fresh("sample"));
    runProgram(recordingFs(new Recorder(root)).fs, path.join(root, "work"), program);
    if (Object.values(listTree(path.join(root, "work"))).some((v) => /^file \d+ ".+"/.test(v))) withContent++;
  }
  expect(withContent).toBeGreaterThan(50 / 4);
});

test("writes in chunks at explicit positions, each where the last ended, and one back over the last, replay at every cut to the disk the real calls left", () => {
  const root = layScenario(scratch.fresh("real"));
  const rec = new ListingRecorder(root);
  const chunks: Step[] = [
    { kind: "open", slot: 0, file: "a", flags: "w" },
    { kind: "write", slot: 0, data: "abc", position: 0 },
    { kind: "write", slot: 0, data: "def", position: 3 },
    { kind: "write", slot: 0, data: "XY", position: 3 },
    { kind: "write", slot: 0, data: "gh", position: 6 },
    { kind: "write", slot: 0, data: "ij", position: 8 },
    { kind: "write", slot: 0, data: "!", position: null },
  ];
  expect(runProgram(recordingFs(rec).fs, path.join(root, "work"), chunks)).toBe(chunks.length);
  const trace = rec.trace();
  for (let at = 0; at <= trace.entries.length; at++) {
    const copy = layScenario(scratch.fresh("replayed"));
    replay(trace, { at }, copy);
    expect(listTree(copy), `cut at ${at}`).toEqual(rec.after(at));
  }
});
