// The split of a class into shards (`grade-batch --shard k/n`, `regrade clone`): every submission
// in exactly one shard, the shards' sizes within one of each other, and the same shards whatever
// order the names come in; and grade-batch grading one shard.
import { execa } from "execa";
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { shardNumberOf, shardOf } from "../tools/batch/shard.js";
import { parseCsv } from "./support/batch.js";

const same = (name: string) => name;
const names = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 60 });

describe("shards", () => {
  test("deals the names, sorted by code unit, round-robin: shard 1 gets the 1st, (n+1)th, (2n+1)th", () => {
    const letters = ["g", "b", "a", "f", "e", "c", "d", "B"];
    expect([1, 2, 3].map((index) => shardOf(letters, { index, count: 3 }, same))).toEqual([
      ["B", "c", "f"],
      ["a", "d", "g"],
      ["b", "e"],
    ]);
    expect(shardOf(letters, { index: 1, count: 1 }, same)).toEqual(["B", "a", "b", "c", "d", "e", "f", "g"]);
    expect(shardOf(["x"], { index: 2, count: 2 }, same)).toEqual([]);
  });

  test("puts every name in exactly one shard, with shard sizes within one of each other", () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 12 }), (list, count) => {
        const shards = Array.from({ length: count }, (_, i) => shardOf(list, { index: i + 1, count }, same));
        expect(shards.flat().sort()).toEqual([...list].sort());
        const sizes = shards.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  test("makes the same shards from the names in any order, and shardNumberOf names the shard shardOf puts each in", () => {
    fc.assert(
      fc.property(names.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length }))), fc.integer({ min: 1, max: 12 }), ([list, shuffled], count) => {
        for (let index = 1; index <= count; index++) {
          const shard = shardOf(list, { index, count }, same);
          expect(shardOf(shuffled, { index, count }, same)).toEqual(shard);
          for (const name of shard) expect(shardNumberOf(name, shuffled, count)).toBe(index);
        }
      }),
    );
  });

  test("splits objects by the name given, and shardNumberOf refuses a name that is not among them", () => {
    const rows = [{ n: "b" }, { n: "a" }, { n: "c" }];
    expect(shardOf(rows, { index: 1, count: 2 }, (r) => r.n)).toEqual([{ n: "a" }, { n: "c" }]);
    expect(() => shardNumberOf("z", ["a"], 2)).toThrow('"z" is not among the names split into shards');
  });
});

describe("grade-batch --shard", () => {
  /** Runs `npm run grade-batch -- args`; never throws for a non-zero exit. */
  const gradeBatch = (args: string[]) => execa("npm", ["run", "--silent", "grade-batch", "--", ...args], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1" } });

  test("grades only its shard's submissions, and a shard that holds none writes an empty gradebook and exits 0", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "shard-" });
    try {
      const subs = path.join(tmp.path, "class");
      for (const name of ["c", "a", "b"]) fs.cpSync(path.join(REPO_ROOT, "starter"), path.join(subs, name), { recursive: true });
      const second = await gradeBatch([subs, "--out", path.join(tmp.path, "two.csv"), "--shard", "2/2", "--only", "phase1.round-trip"]);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/Grading 1 submission of 3 \(shard 2\/2\)/);
      expect(parseCsv(fs.readFileSync(path.join(tmp.path, "two.csv"), "utf8")).slice(1).map((row) => row.slice(0, 3))).toEqual([["b", "graded", "0"]]);
      const empty = await gradeBatch([subs, "--out", path.join(tmp.path, "four.csv"), "--shard", "4/4"]);
      expect(empty.exitCode, empty.stderr).toBe(0);
      expect(empty.stderr).toMatch(/no submissions of 3 \(shard 4\/4\)/);
      expect(parseCsv(fs.readFileSync(path.join(tmp.path, "four.csv"), "utf8"))).toHaveLength(1);
      expect(JSON.parse(fs.readFileSync(path.join(tmp.path, "four.json"), "utf8"))).toEqual({ gradebookVersion: 1, rows: [] });
    } finally {
      await tmp.cleanup();
    }
  });
});
