// Crash states that share a recovery (crash/shared-recovery.ts) hold the same thing wherever the
// recovery looked: random programs of file-system calls, recorded over the disk another random
// program left, and random footprints; every two cuts (torn writes included) whose keys are equal
// are replayed, and what each footprint path holds (the file or folder and all below it, and
// whether the folders above it are there), what kind of thing each of its entries is, and what
// each listed folder names must be the same.
import nodeFs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import type { Cut } from "../../crash/model.js";
import { replay } from "../../crash/replay.js";
import { footprintKeys, shareable, traceChanges, type Footprint } from "../../crash/shared-recovery.js";
import { FILES, FOLDERS, programs, type ProgramOptions, type Step } from "../support/fs-programs.js";
import { copyFolder, listTree, propertyTest, recordOverBase, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();

/** Every name a program may use, and the work folder itself, as stored paths; "@/work/none" is never made. */
const NAMES = ["", ...FILES, ...FOLDERS, "none", "d/none"].map((n) => (n === "" ? "@/work" : `@/work/${n}`));

const footprints: fc.Arbitrary<Footprint> = fc.record({
  paths: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 }),
  entries: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 }),
  listings: fc.uniqueArray(fc.constantFrom("@/work", "@/work/d", "@/work/e"), { maxLength: 2 }),
});

/** Lays the disk `base` leaves, records `program` over a copy of it; every cut of its trace, torn writes included. */
function recordOver(base: Step[], program: Step[], options: ProgramOptions) {
  return recordOverBase(scratch, base, program, options, [0.3, 0.7]);
}

/** What is at `abs`, or why nothing is ("ENOENT", or "ENOTDIR" under a file). */
function lstat(abs: string): nodeFs.Stats | string {
  try {
    return nodeFs.lstatSync(abs);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "error";
  }
}

/** What a recovery that looked at `footprint` could see on the disk in `root`. */
function seen(root: string, footprint: Footprint): string {
  const at = (stored: string) => path.join(root, stored.slice(2));
  const whole = footprint.paths.map((p) => {
    const abs = at(p);
    const st = lstat(abs);
    if (typeof st === "string") return `${p}: ${st}`;
    if (st.isDirectory()) return `${p}: dir ${JSON.stringify(listTree(abs))}`;
    return `${p}: ${JSON.stringify(listTree(path.dirname(abs))[path.basename(abs)])}`;
  });
  const kinds = footprint.entries.map((p) => {
    const st = lstat(at(p));
    return `${p}: ${typeof st === "string" ? st : `${st.isDirectory() ? "dir" : st.isFile() ? "file" : "other"} ${(st.mode & 0o7777).toString(8)}`}`;
  });
  const names = footprint.listings.map((p) => {
    try {
      return `${p} lists ${nodeFs.readdirSync(at(p), { withFileTypes: true }).map((d) => `${d.name}:${d.isDirectory() ? "dir" : "file"}`).sort().join(" ")}`;
    } catch (error) {
      return `${p}: ${(error as NodeJS.ErrnoException).code}`;
    }
  });
  return [...whole, ...kinds, ...names].join("\n");
}

function sameWhereLooked(base: Step[], program: Step[], footprint: Footprint, options: ProgramOptions): void {
  const { start, trace, cuts } = recordOver(base, program, options);
  const keys = footprintKeys(trace, cuts, footprint);
  const firstSeen = new Map<string, { cut: Cut; saw: string }>();
  for (const [i, cut] of cuts.entries()) {
    const key = keys[i];
    if (key === null || key === undefined) continue;
    const disk = copyFolder(start, scratch.fresh("cut"));
    replay(trace, cut, disk);
    const saw = seen(disk, footprint);
    const first = firstSeen.get(key);
    if (!first) firstSeen.set(key, { cut, saw });
    else expect(saw, `cuts ${JSON.stringify(first.cut)} and ${JSON.stringify(cut)} share key ${key}`).toBe(first.saw);
  }
}

// Bases without links: a disk the grader rebuilds comes from traces, and one with links is never shared.
const bases = fc.oneof(fc.constant<Step[]>([]), programs({ hardLinks: false, symlinks: false }, 10));
const noLinks: ProgramOptions = { hardLinks: false, symlinks: false, folderRenames: true, sameFileRenames: true, modes: true };

propertyTest(
  "cuts with the same key hold the same thing at every path of the footprint and the same names in every listed folder",
  [bases, programs(noLinks, 16), footprints],
  (base, program, footprint) => sameWhereLooked(base, program, footprint, noLinks),
  200,
);

/**
 * The keys by a scan of every change for each footprint path (the definition at the top of
 * crash/shared-recovery.ts, written out): per path, the last change before the cut that affects it.
 */
function keysByScan(trace: Parameters<typeof traceChanges>[0], cuts: Cut[], footprint: Footprint): string[] {
  const changes = traceChanges(trace)!;
  const inside = (folder: string, p: string) => p.startsWith(`${folder}/`);
  const parent = (p: string) => p.slice(0, p.lastIndexOf("/"));
  const affecting = [
    ...footprint.paths.map((p) => changes.filter((c) => c.paths.some((q) => q === p || inside(q, p) || inside(p, q)))),
    ...footprint.entries.map((p) => changes.filter((c) => c.paths.some((q) => ((c.names || c.attr) && q === p) || inside(q, p)))),
    ...footprint.listings.map((p) => changes.filter((c) => c.paths.some((q) => q === p || inside(q, p) || (c.names && parent(q) === p)))),
  ];
  return cuts.map((cut) =>
    affecting
      .map((list) => {
        const before = list.filter((c) => c.index < cut.at);
        const torn = cut.bytes !== undefined && list.some((c) => c.index === cut.at);
        return `${before.at(-1)?.index ?? -1}${torn ? `+${cut.bytes}` : ""}`;
      })
      .join(","),
  );
}

propertyTest(
  "two cuts share a key exactly when, for every footprint path, the last change before them that affects it is the same (a scan of every change)",
  [bases, programs(noLinks, 16), footprints],
  (base, program, footprint) => {
    const { trace, cuts } = recordOver(base, program, noLinks);
    const keys = footprintKeys(trace, cuts, footprint);
    const scanned = keysByScan(trace, cuts, footprint);
    for (let i = 0; i < cuts.length; i++) {
      for (let j = i + 1; j < cuts.length; j++) {
        expect(keys[i] === keys[j], `cuts ${JSON.stringify(cuts[i])} and ${JSON.stringify(cuts[j])}: keys ${keys[i]}, ${keys[j]}; by scan ${scanned[i]}, ${scanned[j]}`).toBe(scanned[i] === scanned[j]);
      }
    }
  },
  150,
);

propertyTest(
  "a trace with a link or a symbolic link gives no key, and no cut of it is shared",
  [programs({}, 16)],
  (program) => {
    const { trace, cuts } = recordOver([], program, {});
    const linked = trace.entries.some((e) => e.kind === "link" || e.kind === "symlink");
    expect(shareable([trace])).toBe(!linked);
    if (linked) expect(footprintKeys(trace, cuts, { paths: ["@/work/a"], entries: [], listings: [] }).every((k) => k === null)).toBe(true);
  },
  60,
);

test("a checkpoint written in 20 chunks: every crash state before the rename shares the recovery that reads the checkpoint, and the rename starts another", () => {
  const chunks: Step[] = Array.from({ length: 20 }, (_, k) => ({ kind: "write", slot: 0, data: `c${k % 10}`, position: null }));
  const program: Step[] = [{ kind: "open", slot: 0, file: "a.tmp", flags: "wx" }, ...chunks, { kind: "fsync", slot: 0 }, { kind: "close", slot: 0 }, { kind: "rename", from: "a.tmp", to: "a" }];
  const { trace, cuts } = recordOver([{ kind: "writeFile", file: "a", data: "old", flag: "w" }], program, noLinks);
  const keys = footprintKeys(trace, cuts, { paths: ["@/work/a"], entries: [], listings: [] });
  const renameAt = trace.entries.findIndex((e) => e.kind === "rename");
  const before = new Set(keys.filter((_, i) => cuts[i]!.at <= renameAt));
  const after = new Set(keys.filter((_, i) => cuts[i]!.at > renameAt));
  expect(cuts.filter((c) => c.at <= renameAt).length).toBeGreaterThan(40);
  expect([before.size, after.size]).toEqual([1, 1]);
  // A recovery that lists the folder tells the crash states before the temp file was made from those after.
  const listing = new Set(footprintKeys(trace, cuts, { paths: ["@/work/a"], entries: [], listings: ["@/work"] }).filter((_, i) => cuts[i]!.at <= renameAt));
  expect(listing.size).toBe(2);
  // So does one that removes the temp file: whether it is there matters, not what it holds.
  const removing = new Set(footprintKeys(trace, cuts, { paths: ["@/work/a"], entries: ["@/work/a.tmp"], listings: [] }).filter((_, i) => cuts[i]!.at <= renameAt));
  expect(removing.size).toBe(2);
});

test("a power cut is never shared", () => {
  const { trace } = recordOver([], [{ kind: "writeFile", file: "a", data: "x", flag: "w" }], noLinks);
  expect(footprintKeys(trace, [{ at: 1, power: { data: "lost", names: "lost" } }], { paths: ["@/work/a"], entries: [], listings: [] })).toEqual([null]);
});

test("a write through a descriptor whose file was renamed since changes the file at its new name, and the folder that holds it", () => {
  const program: Step[] = [
    { kind: "open", slot: 0, file: "a.tmp", flags: "w" },
    { kind: "rename", from: "a.tmp", to: "d/a" },
    { kind: "write", slot: 0, data: "new", position: null },
  ];
  const { trace, cuts } = recordOver([{ kind: "mkdir", folder: "d" }], program, noLinks);
  const writeAt = trace.entries.findIndex((e) => e.kind === "write");
  for (const footprint of [{ paths: ["@/work/d/a"], entries: [], listings: [] }, { paths: ["@/work/d"], entries: [], listings: [] }]) {
    const keys = footprintKeys(trace, cuts, footprint);
    const key = (at: number) => keys[cuts.findIndex((c) => c.at === at && c.bytes === undefined)];
    expect(key(writeAt + 1), JSON.stringify(footprint)).not.toBe(key(writeAt));
  }
});
