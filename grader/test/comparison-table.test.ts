// The stretch-git comparison's row "killed inside the commit", in the file checkpoint's column: a
// rename cannot be cut inside, so the cell says so when the runner's save renamed, and says that
// there was neither a commit nor a rename when it did not (a save that writes in place or appends).
import { describe, expect, test } from "vitest";
import { comparisonTable, type Kind, type Measured } from "../checks/stretch-git/comparison.js";

/** A measured implementation whose crashes of each kind were `of` (recovered each time). */
function measured(file: string, of: Partial<Record<Kind, number>>): Measured {
  const tally = (kind: Kind) => ({ recovered: of[kind] ?? 0, of: of[kind] ?? 0 });
  return { file, msPerCheckpoint: 1, recovery: { "state write": tally("state write"), "before commit": tally("before commit"), "inside commit": tally("inside commit"), "after commit": tally("after commit") }, disk: { bytes: 2048, files: 1 } };
}

/** The cells of the row about crashes inside the commit. */
function insideCommit(file: Measured): string[] {
  const table = comparisonTable([file, measured("git-checkpoint.ts", { "state write": 4, "before commit": 4, "inside commit": 4, "after commit": 4 })], [undefined, undefined], [3, 7]);
  return table.rows.find((r) => r.label === "recovered, killed inside the commit")!.cells;
}

describe("the comparison's cell for a crash inside the commit of a file checkpoint", () => {
  test("a runner whose save renamed gets '– (a rename is atomic)'; git's column counts its crashes", () => {
    expect(insideCommit(measured("runner.ts", { "state write": 4, "before commit": 4, "after commit": 4 }))).toEqual(["– (a rename is atomic)", "4 of 4"]);
  });

  test("a runner whose save made no rename gets '– (no commit, no rename)', not a word about renames it never made", () => {
    expect(insideCommit(measured("runner.ts", { "state write": 4, "after commit": 4 }))).toEqual(["– (no commit, no rename)", "4 of 4"]);
  });
});
