// The power cuts of a state written in many small pieces: with maxPoints, the points after
// writes are sampled evenly, the first and the last kept, so that at most that many points are
// cut; every other point (before the call, after the open, the fsync, the rename) keeps
// its cut; with room for every point, every write keeps one; by default, as many as a process
// crash's window has crash states.
import { describe, expect, test } from "vitest";
import { MAX_POWER_POINTS, powerCuts } from "../../checks/power-loss/power-window.js";
import { MAX_CUTS } from "../../crash/cuts.js";
import type { Trace } from "../../crash/model.js";
import { POWER_POLICIES } from "../../crash/power-loss.js";

const bytes = new Uint8Array(16);
const write = (fd: number) => ({ kind: "write" as const, fd, bytes, position: null, api: "writeSync" });

/** open temp, `pieces` writes to it, fsync, close, rename: entries 0 to pieces + 3. */
function save(pieces: number): Trace {
  return {
    truncated: false,
    entries: [
      { kind: "open", path: "@/work/t.tmp", flags: "wx", fd: 3, api: "openSync" },
      ...Array.from({ length: pieces }, () => write(3)),
      { kind: "fsync", fd: 3, data: true, api: "fsyncSync" },
      { kind: "close", fd: 3, api: "closeSync" },
      { kind: "rename", from: "@/work/t.tmp", to: "@/work/checkpoint.json", api: "renameSync" },
    ],
  };
}

/** The points cut, each under every policy once. */
function points(trace: Trace, maxPoints?: number): number[] {
  const cuts = powerCuts(trace, 0, trace.entries.length, { maxPoints });
  const at = [...new Set(cuts.map((c) => c.at))];
  expect(cuts).toHaveLength(at.length * POWER_POLICIES.length);
  return at;
}

describe("power cuts of a state written in pieces", () => {
  test("1,000 pieces with maxPoints 16: 16 points, every one that is not after a write among them, the first and last write's, and the rest evenly spaced", () => {
    const all = points(save(1000), 2000);
    const cut = points(save(1000), 16);
    expect(cut).toHaveLength(16);
    const afterWrite = (at: number) => at >= 2 && at <= 1001;
    expect(cut.filter((at) => !afterWrite(at))).toEqual(all.filter((at) => !afterWrite(at)));
    expect(cut.filter((at) => !afterWrite(at))).toEqual(expect.arrayContaining([0, 1, 1002, 1004]));
    const pieces = cut.filter(afterWrite);
    expect([pieces[0], pieces.at(-1)]).toEqual([2, 1001]);
    const gaps = pieces.slice(1).map((at, k) => at - pieces[k]!);
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
  });

  test("with room for every point, every write keeps its cut; without maxPoints, at most MAX_POWER_POINTS points are cut (crash/cuts.ts's MAX_CUTS power cuts)", () => {
    expect(points(save(1000), 2000)).toHaveLength(1004);
    expect(points(save(8), 16)).toEqual(points(save(8), 2000));
    expect(points(save(8))).toEqual(points(save(8), 2000));
    expect(points(save(1000))).toHaveLength(MAX_POWER_POINTS);
    expect(MAX_POWER_POINTS * POWER_POLICIES.length).toBe(MAX_CUTS);
  });
});
