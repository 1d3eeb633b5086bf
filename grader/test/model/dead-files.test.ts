// A crash state rebuilt without the entries of files gone by the cut (crash/dead-files.ts) is the
// disk the whole prefix rebuilds: random programs of file-system calls, recorded over the disk
// another random program left, replayed both ways at every cut (torn writes included) onto that
// disk, give the same paths, bytes, modes and links.
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { deadFilePlan, leftOutAt } from "../../crash/dead-files.js";
import { replay } from "../../crash/replay.js";
import { programs, type ProgramOptions, type Step } from "../support/fs-programs.js";
import { copyFolder, listTree, propertyTest, recordOverBase, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();

/** What a program that writes a checkpoint `steps` times the safe way does: each write replaces the last. */
function checkpointLoop(steps: number): Step[] {
  return Array.from({ length: steps }, (_, k): Step[] => [
    { kind: "open", slot: 0, file: "a.tmp", flags: "w" },
    { kind: "write", slot: 0, data: `s${k}`, position: null },
    { kind: "fsync", slot: 0 },
    { kind: "close", slot: 0 },
    { kind: "rename", from: "a.tmp", to: "a" },
  ]).flat();
}

/** Lays the disk `base` leaves, records `program` over a copy of it; every cut of its trace, torn writes included. */
function recordOver(base: Step[], program: Step[], options: ProgramOptions) {
  return recordOverBase(scratch, base, program, options, [0.5]);
}

function sameDiskBothWays(base: Step[], program: Step[], options: ProgramOptions): void {
  const { start, trace, cuts } = recordOver(base, program, options);
  for (const cut of cuts) {
    const whole = copyFolder(start, scratch.fresh("whole"));
    replay(trace, cut, whole, { deadFiles: "redo" });
    const lean = copyFolder(start, scratch.fresh("lean"));
    replay(trace, cut, lean, { deadFiles: "leave-out" });
    expect(listTree(lean, { links: true }), `cut ${JSON.stringify(cut)}`).toEqual(listTree(whole, { links: true }));
  }
}

// Without links, symbolic links or folder renames, the model follows every trace: the property tests the files it leaves out.
const followed: ProgramOptions = { hardLinks: false, symlinks: false, folderRenames: false, sameFileRenames: true };
// The disk a trace starts from: often empty (every file is the trace's own), else what a short program left.
// (A base's symbolic links are relative: the base is copied, and an absolute one would point into the original.)
const bases = (options: ProgramOptions) => fc.oneof(fc.constant<Step[]>([]), programs({ ...options, absoluteSymlinks: false }, 10));
// A random program's calls, among which files are written whole and renamed over others, as a checkpoint is: files go often.
const replacing: fc.Arbitrary<Step[]> = fc
  .record({ temp: fc.constantFrom("a.tmp", "b", "d/a"), to: fc.constantFrom("a", "b", "e/a"), data: fc.constantFrom("x", "yy", "zzz"), fsync: fc.boolean() })
  .map(({ temp, to, data, fsync }): Step[] => [
    { kind: "open", slot: 0, file: temp, flags: "w" },
    { kind: "write", slot: 0, data, position: null },
    ...(fsync ? [{ kind: "fsync", slot: 0 } as const] : []),
    { kind: "close", slot: 0 },
    { kind: "rename", from: temp, to },
  ]);
const churn = (options: ProgramOptions) => fc.array(fc.oneof(programs(options, 5), replacing), { minLength: 1, maxLength: 8 }).map((parts) => parts.flat());

propertyTest(
  "leaving out the files gone by the cut rebuilds the same disk at every cut, over whatever disk the trace started from",
  [bases(followed), churn(followed)],
  (base, program) => sameDiskBothWays(base, program, followed),
  150,
);

propertyTest(
  "a trace with links, symbolic links or folder renames rebuilds the same disk at every cut (replayed whole when the model cannot follow it)",
  [bases({}), churn({})],
  (base, program) => sameDiskBothWays(base, program, {}),
  60,
);

test("the cuts of a checkpoint written 40 times leave out all but the last write's files: one crash state replays a handful of entries, not 200", () => {
  const { start, trace } = recordOver([], checkpointLoop(40), followed);
  const plan = deadFilePlan(trace);
  expect(plan).not.toBeNull();
  const at = trace.entries.length;
  const leftOut = leftOutAt(plan!, at, copyFolder(start, scratch.fresh("probe")));
  const redone = Array.from({ length: at }, (_, i) => i).filter((i) => !leftOut(i));
  expect(at).toBe(200);
  expect(redone.length).toBeLessThanOrEqual(10);
});

test("a file from before the trace that a rename replaced stays gone when the replacing file is removed later", () => {
  // Base: a holds "old". Trace: a.tmp renamed over a, then a removed; a crash after that must not bring "old" back.
  const base: Step[] = [{ kind: "writeFile", file: "a", data: "old", flag: "w" }];
  const program: Step[] = [...checkpointLoop(15), { kind: "unlink", file: "a" }, ...checkpointLoop(1).map((s) => (s.kind === "rename" ? { ...s, to: "b" } : s))];
  const { start, trace } = recordOver(base, program, followed);
  const at = trace.entries.length;
  const lean = copyFolder(start, scratch.fresh("lean"));
  replay(trace, { at }, lean, { deadFiles: "leave-out" });
  expect(listTree(path.join(lean, "work"), { modes: false })).toEqual({ b: 'file "s0"' });
  const whole = copyFolder(start, scratch.fresh("whole"));
  replay(trace, { at }, whole, { deadFiles: "redo" });
  expect(listTree(lean)).toEqual(listTree(whole));
});

test("the property's programs are followed by the model: most of their traces get a plan, and most plans leave something out", () => {
  const samples = fc.sample(fc.tuple(bases(followed), churn(followed)), { seed: 11, numRuns: 40 });
  let planned = 0;
  let leavingOut = 0;
  for (const [base, program] of samples) {
    const { start, trace } = recordOver(base, program, followed);
    const plan = deadFilePlan(trace);
    if (!plan) continue;
    planned++;
    const leftOut = leftOutAt(plan, trace.entries.length, copyFolder(start, scratch.fresh("probe")));
    if (trace.entries.some((_, i) => leftOut(i))) leavingOut++;
  }
  expect(planned).toBeGreaterThan(40 * 0.75);
  expect(leavingOut).toBeGreaterThan(40 / 4);
});
