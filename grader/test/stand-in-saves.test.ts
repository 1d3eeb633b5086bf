// The grader's stand-ins (grader/stand-ins/) are correct only because the crash model makes each
// of their saves whole: a simulated crash lands before a save or after it, never inside it or in
// the middle of its write, and a real kill at the n-th change to the disk counts a save as one.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { crashCuts } from "../crash/cuts.js";
import { describeCut } from "../crash/describe.js";
import { STAND_IN_API, standInSpans } from "../crash/stand-in.js";
import { replay } from "../crash/replay.js";
import { killPoint } from "../sandbox/runtime/process.js";
import { standInModule } from "../sandbox/runtime/target/stand-in-module.js";
import type { FsOp } from "../crash/model.js";
import { layScenario, ListingRecorder, recordingFs, scratchFolder } from "./support/model-fs.js";

const scratch = scratchFolder();

/** Own writes around two stand-in saves, recorded; `beforeOp`, given the recorder, sees every operation. */
function recordRun(beforeOp?: (rec: () => ListingRecorder) => (op: FsOp) => void) {
  const root = layScenario(scratch.fresh("real"));
  const rec: ListingRecorder = new ListingRecorder(root, beforeOp?.(() => rec));
  const { fs: rfs } = recordingFs(rec);
  const standIn = standInModule(rfs, () => rec) as { save(file: string, text: string): void };
  const work = path.join(root, "work");
  rfs.writeFileSync(path.join(work, "notes.txt"), "own write");
  standIn.save(path.join(work, "checkpoint.json"), JSON.stringify({ step: 1, pad: "x".repeat(300) }));
  standIn.save(path.join(work, "checkpoint.json"), JSON.stringify({ step: 2, pad: "y".repeat(300) }));
  rfs.renameSync(path.join(work, "notes.txt"), path.join(work, "notes.old"));
  return { root, rec, trace: rec.trace() };
}

test("a simulated crash lands before or after each stand-in save, never inside it or in the middle of its write", () => {
  const { trace } = recordRun();
  const spans = standInSpans(trace);
  expect(spans).toHaveLength(2);
  for (const s of spans) expect(trace.entries.slice(s.start, s.end).map((e) => e.kind)).toEqual(["open", "write", "close"]);
  const cuts = crashCuts(trace, 0, trace.entries.length);
  // The own writeFileSync is torn at many bytes: the model still cuts the target's own calls.
  expect(cuts.filter((c) => c.bytes !== undefined).length).toBeGreaterThan(3);
  for (const c of cuts) for (const s of spans) expect(c.bytes === undefined ? !(s.start < c.at && c.at < s.end) : !(s.start <= c.at && c.at < s.end), JSON.stringify(c)).toBe(true);
  // ...and the disk right after each save is one of the states: its end is a cut.
  for (const s of spans) expect(cuts.some((c) => c.at === s.end && c.bytes === undefined)).toBe(true);
});

test("every disk the cuts rebuild holds checkpoint.json whole: absent, step 1 or step 2", () => {
  const { trace } = recordRun();
  const held = new Set<string>();
  for (const cut of crashCuts(trace, 0, trace.entries.length)) {
    const root = layScenario(scratch.fresh("cut"));
    replay(trace, cut, root);
    const file = path.join(root, "work", "checkpoint.json");
    held.add(fs.existsSync(file) ? String((JSON.parse(fs.readFileSync(file, "utf8")) as { step: number }).step) : "absent");
  }
  expect([...held].sort()).toEqual(["1", "2", "absent"]);
});

test("a crash right after a save is told as the stand-in's save of its file", () => {
  const { trace } = recordRun();
  const [first] = standInSpans(trace);
  expect(describeCut(trace, { at: first!.end }, 0, { call: "runTask" })).toBe('killed right after the grader\'s stand-in for atomicCheckpoint saved "checkpoint.json"');
  expect(trace.entries.slice(first!.start, first!.end).every((e) => e.kind !== "mark" && e.kind !== "effect" && e.api === STAND_IN_API)).toBe(true);
});

test("a real kill counts each stand-in save as one change, at its first operation, and none of its writes as a write", () => {
  /** The operation the kill rule names, and whether a save was under way when it came. */
  const killedAt = (rule: { nthChange?: number; nthWrite?: number }) => {
    const counter = { changes: 0 };
    let hit: { op: FsOp; save: { counted: boolean } | null } | undefined;
    recordRun((rec) => {
      const hits = killPoint(rule, counter, () => rec().standInSave);
      return (op) => {
        const save = rec().standInSave ? { ...rec().standInSave! } : null;
        if (hits(op)) hit ??= { op, save };
      };
    });
    return { hit, changes: counter.changes };
  };
  // The own writeFileSync (its open and its write), one per save, and the rename.
  expect(killedAt({}).changes).toBe(5);
  const named = [1, 2, 3, 4, 5].map((n) => killedAt({ nthChange: n }).hit!);
  expect(named.map((h) => `${h.op.kind}${h.save ? " (save)" : ""}`)).toEqual(["open", "write", "open (save)", "open (save)", "rename"]);
  // The first save's open is where a kill before it lands; the save had not been counted then.
  expect(named[2]!.save).toEqual({ counted: false });
  // Only the own write is a write: no write of a save is ever the n-th write.
  expect(killedAt({ nthWrite: 1 }).hit!.op.api).toBe("writeFileSync");
  expect(killedAt({ nthWrite: 2 }).hit).toBeUndefined();
});
