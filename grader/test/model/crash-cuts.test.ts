// Every crash state the engine rebuilds is one the real calls could have left. The model's
// promise (crash/replay.ts, crash/cuts.ts): a cut { at } is the disk after the first `at` entries
// of the trace, exactly; a cut { at, bytes } is that disk with only the first `bytes` bytes of the
// write at `at` on it, where the whole write would have put them. And the cuts are enough: one
// after every entry that changes the disk, and, inside a short write, one at every byte.
import path from "node:path";
import { expect, test } from "vitest";
import { crashCuts, tearPoints } from "../../crash/cuts.js";
import type { Cut } from "../../crash/model.js";
import { replay } from "../../crash/replay.js";
import { changesDisk } from "../../crash/trace.js";
import { diskKeys } from "../../crash/same-disk.js";
import type { Trace } from "../../crash/model.js";
import { programs, runProgram } from "../support/fs-programs.js";
import { layScenario, listTree, ListingRecorder, propertyTest, recordingFs, scratchFolder, type Listing } from "../support/model-fs.js";

const scratch = scratchFolder();

/** Runs a program through the recording fs, listing the disk after each entry. */
function recorded(program: Parameters<typeof runProgram>[2]): { rec: ListingRecorder; trace: Trace } {
  const root = layScenario(scratch.fresh("real"));
  const rec = new ListingRecorder(root);
  runProgram(recordingFs(rec).fs, path.join(root, "work"), program);
  return { rec, trace: rec.trace() };
}

/** The disk `cut` rebuilds, listed. */
function rebuilt(trace: Trace, cut: Cut): Listing {
  const root = layScenario(scratch.fresh("cut"));
  replay(trace, cut, root);
  return listTree(root);
}

/** `before` with `bytes` written at `at` (the file grows as a write past its end makes it, with zeros). */
function written(before: string, at: number, bytes: string): string {
  return before.padEnd(at, "\0").slice(0, at) + bytes + before.slice(at + bytes.length);
}

/** A file's listing as its mode and content. */
function fileOf(listing: string | undefined): { mode: string; content: string } | undefined {
  const m = listing?.match(/^file (\d+) (".*")$/s);
  return m ? { mode: m[1]!, content: JSON.parse(m[2]!) as string } : undefined;
}

/**
 * The disk a write torn after `bytes` of its `data` can leave, as the model promises: every path
 * as before the write, except the files the write changed, each holding the first `bytes` bytes
 * of `data` where the whole write put them. Several places may fit (a write of the bytes already
 * there); each one's torn disk is returned.
 */
function tornStates(before: Listing, after: Listing, data: string, bytes: number): Listing[] {
  const changed = Object.keys(after).filter((p) => after[p] !== before[p]);
  const gone = Object.keys(before).filter((p) => !(p in after));
  if (gone.length > 0) return [];
  // One place for every changed path: where `data` lands to turn the content before into the content after.
  const places = new Set<number>();
  for (const p of changed) {
    const [b, a] = [fileOf(before[p]), fileOf(after[p])];
    if (!b || !a || b.mode !== a.mode) return [];
    for (let at = 0; at + data.length <= a.content.length; at++) if (written(b.content, at, data) === a.content) places.add(at);
  }
  if (changed.length === 0) {
    // The write changed nothing visible (written to an unlinked file, or the same bytes over themselves).
    return [before];
  }
  return [...places].map((at) => {
    const torn = { ...before };
    for (const p of changed) {
      const b = fileOf(before[p])!;
      torn[p] = `file ${b.mode} ${JSON.stringify(written(b.content, at, data.slice(0, bytes)))}`;
    }
    return torn;
  });
}

propertyTest(
  "the disk every crash cut rebuilds is the disk after that many entries, and a torn write adds only its first bytes where the whole write put them",
  [programs()],
  (program) => {
    const { rec, trace } = recorded(program);
    for (const cut of crashCuts(trace, 0, trace.entries.length)) {
      const disk = rebuilt(trace, cut);
      if (cut.bytes === undefined) {
        expect(disk, `cut at ${cut.at}`).toEqual(rec.after(cut.at));
        continue;
      }
      const write = trace.entries[cut.at]!;
      expect(write.kind).toBe("write");
      const data = write.kind === "write" ? Buffer.from(write.bytes).toString("latin1") : "";
      const possible = tornStates(rec.after(cut.at), rec.after(cut.at + 1), data, cut.bytes);
      expect(possible, `write at ${cut.at} torn after ${cut.bytes} bytes`).toContainEqual(disk);
    }
  },
  60,
);

propertyTest(
  "the cuts are one before the first entry, one after every entry that changes the disk, and one at every byte inside every write shorter than 65 bytes, in time order",
  [programs()],
  (program) => {
    const { trace } = recorded(program);
    const cuts = crashCuts(trace, 0, trace.entries.length);
    const wanted: Cut[] = [{ at: 0 }];
    trace.entries.forEach((e, i) => {
      if (e.kind === "write") for (let bytes = 1; bytes < e.bytes.byteLength; bytes++) wanted.push({ at: i, bytes });
      if (changesDisk(e)) wanted.push({ at: i + 1 });
    });
    wanted.sort((a, b) => a.at - b.at || (a.bytes ?? -1) - (b.bytes ?? -1));
    expect(cuts).toEqual(wanted);
  },
  100,
);

propertyTest(
  "cuts at any two places that share a disk key rebuild the same disk, and a cut after each change to the disk has a key of its own",
  [programs()],
  (program) => {
    const { rec, trace } = recorded(program);
    const everywhere: Cut[] = Array.from({ length: trace.entries.length + 1 }, (_, at) => ({ at }));
    const keys = diskKeys(trace, everywhere);
    const first = new Map<string, number>();
    keys.forEach((key, at) => {
      const seen = first.get(key!);
      if (seen === undefined) first.set(key!, at);
      else expect(rebuilt(trace, { at }), `cut at ${at} shares its key with the cut at ${seen}`).toEqual(rec.after(seen));
    });
    expect(new Set(keys).size).toBe(1 + trace.entries.filter(changesDisk).length);
    // A torn write and a power cut share their disk with no other cut.
    const torn = crashCuts(trace, 0, trace.entries.length).filter((c) => c.bytes !== undefined);
    expect(new Set(diskKeys(trace, [...torn, ...everywhere])).size).toBe(torn.length + new Set(keys).size);
    expect(diskKeys(trace, [{ at: 0, power: { data: "lost", names: "lost" } }])).toEqual([null]);
  },
  60,
);

test("a long write is torn at its first, second, middle and last two bytes, at each page edge inside it, and at the chosen fractions", () => {
  expect(tearPoints(65)).toEqual([1, 2, 32, 63, 64]);
  expect(tearPoints(70_000, [0.25])).toEqual([1, 2, 512, 4096, 17_500, 35_000, 65_536, 69_998, 69_999]);
});

propertyTest(
  "with fewer cuts allowed than a trace has, every cut after an entry that is not a write is kept, and the others are among the full list",
  [programs({}, 40)],
  (program) => {
    const { trace } = recorded(program);
    const all = crashCuts(trace, 0, trace.entries.length);
    const structural = all.filter((c) => c.at === 0 || (c.bytes === undefined && trace.entries[c.at - 1]!.kind !== "write"));
    const few = crashCuts(trace, 0, trace.entries.length, [], structural.length + 3);
    expect(few.length).toBeLessThanOrEqual(Math.max(structural.length + 3, structural.length));
    for (const c of structural) expect(few).toContainEqual(c);
    for (const c of few) expect(all).toContainEqual(c);
  },
  40,
);
