// The power-loss model (crash/power-loss.ts) against the fsync rules, judged by a disk written
// from the model's own description (support/power-oracle.ts): file data and folder entries are
// made durable independently (an fsync of a file makes its data durable, an fsync of a folder its
// entries); a power cut under every policy keeps what was durable, and shows of what was not only
// what a disk could show: data as of the last fsync, as written, or a prefix of it; entries as of
// each folder's last fsync, or as they are. And the model is not too regular: it does lose what
// was not made durable.
import path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { powerCuts } from "../../checks/power-loss/power-window.js";
import type { Cut, FsOp, PowerPolicy, Trace } from "../../crash/model.js";
import { modelAt, POWER_POLICIES, powerImage, powerReplay } from "../../crash/power-loss.js";
import { programs, runProgram, type ProgramOptions, type Step } from "../support/fs-programs.js";
import { layScenario, listTree, ListingRecorder, propertyTest, recordingFs, scratchFolder } from "../support/model-fs.js";
import { DiskOracle } from "../support/power-oracle.js";

const scratch = scratchFolder();

/** Programs run one after the other on what a power cut left: an absolute link would name the folder it was made in. */
const CHAINED: ProgramOptions = { absoluteSymlinks: false };

/** Every kind of call the programs make: folder renames, symbolic links (absolute ones too), writes at a position through a descriptor opened to append, renames between two names of one file. */
const HOLDS: ProgramOptions = {};

function recorded(program: Step[], options: ProgramOptions): { rec: ListingRecorder; trace: Trace } {
  const root = layScenario(scratch.fresh("real"));
  const rec = new ListingRecorder(root);
  runProgram(recordingFs(rec).fs, path.join(root, "work"), program, options);
  return { rec, trace: rec.trace() };
}

/** The oracle after the trace's entries before `cut.at`, everything durable before entry `settled`. */
function oracleAt(trace: Trace, at: number, settled: number): DiskOracle {
  const oracle = new DiskOracle();
  for (let i = 0; i < at; i++) {
    if (i === settled) oracle.settle();
    const e = trace.entries[i]!;
    if (e.kind !== "mark" && e.kind !== "effect") oracle.apply(e as FsOp);
  }
  if (settled >= at) oracle.settle();
  return oracle;
}

/** A power-loss image as path to "dir", "-> target" or the file's content (latin1). */
function imageOf(trace: Trace, cut: Cut, policy: PowerPolicy): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, node] of powerImage(modelAt(trace, cut), policy)) {
    if (name === "@") continue;
    out.set(name, node.kind === "dir" ? "dir" : node.kind === "symlink" ? `-> ${node.target}` : node.data.toString("latin1"));
  }
  return out;
}

/** The power cuts the power-loss checks make of a window that starts `percent` of the way into the trace (every point, every policy). */
function cutsOf(trace: Trace, percent: number): Cut[] {
  return powerCuts(trace, Math.floor((trace.entries.length * percent) / 100), trace.entries.length);
}

const programAndWindow = fc.tuple(programs(HOLDS), fc.integer({ min: 0, max: 100 }));

/** For each power cut of a program's window: the cut, the oracle's disk at it and the model's image under the cut's policy. */
function eachPowerCut([program, start]: [Step[], number], check: (cut: Cut & { power: PowerPolicy }, oracle: DiskOracle, image: Map<string, string>) => void): void {
  const { trace } = recorded(program, HOLDS);
  for (const cut of cutsOf(trace, start)) {
    const power = cut.power!;
    check({ ...cut, power }, oracleAt(trace, cut.at, power.settled!), imageOf(trace, cut, power));
  }
}

/** "dir" for a folder, "file" for anything else. */
const shape = (kind: string) => (kind === "dir" ? "dir" : "file");

describe("power-loss images obey the fsync rules", () => {
  propertyTest(
    "under every policy an image holds exactly the entries each folder has now (names kept) or had at its last fsync (names lost), what was durable before the window included",
    [programAndWindow],
    (window) =>
      eachPowerCut(window, (cut, oracle, image) => {
        const expected = oracle.tree(cut.power.names === "lost");
        expect(new Map([...image].map(([p, v]) => [p, shape(v)])), JSON.stringify(cut)).toEqual(new Map([...expected].map(([p, held]) => [p, shape(held.kind)])));
      }),
    60,
  );

  propertyTest(
    "a file's data in an image is its data as of its last fsync (data lost), as written (data kept), or one of those or a prefix of what was written no shorter than the file was since its last fsync (partial)",
    [programAndWindow],
    (window) =>
      eachPowerCut(window, (cut, oracle, image) => {
        for (const [p, held] of oracle.tree(cut.power.names === "lost")) {
          if (held.kind !== "file") continue;
          const file = oracle.file(held.inode);
          const [now, synced, shown] = [file.data.toString("latin1"), file.synced.toString("latin1"), image.get(p)];
          const where = `${p} at ${JSON.stringify(cut)}`;
          if (cut.power.data === "lost") expect(shown, where).toBe(synced);
          else if (cut.power.data === "kept") expect(shown, where).toBe(now);
          else {
            const prefix = now.startsWith(shown ?? "\u{fffd}") && (shown ?? "").length >= file.shortest;
            expect(shown === synced || prefix, `${where}: ${JSON.stringify(shown)}, synced ${JSON.stringify(synced)}, now ${JSON.stringify(now)}, shortest since its fsync ${file.shortest}`).toBe(true);
          }
        }
      }),
    60,
  );

  propertyTest(
    "a power cut that keeps all data and all folder changes leaves the disk a process crash at that point leaves",
    [programs(HOLDS)],
    (program) => {
      const { rec, trace } = recorded(program, HOLDS);
      for (const cut of cutsOf(trace, 0).filter((c) => c.power!.data === "lost" && c.power!.names === "kept")) {
        const root = layScenario(scratch.fresh("power"));
        powerReplay(trace, cut, { data: "kept", names: "kept" }, root);
        expect(listTree(root, { modes: false }), `cut at ${cut.at}`).toEqual(stripModes(rec.after(cut.at)));
      }
    },
    60,
  );

  propertyTest(
    "a process started on the disk a power cut left: that disk is durable (a power cut before its first change leaves it as it was), and a power cut that keeps all leaves what a process crash there leaves",
    [programs(CHAINED), programs(CHAINED), fc.nat(), fc.constantFrom(...POWER_POLICIES)],
    (first, second, pick, policy) => {
      const { trace: before } = recorded(first, CHAINED);
      const cuts = cutsOf(before, 0);
      const cut1 = { ...cuts[pick % cuts.length]!, power: { ...policy, settled: 0 } };
      const onCut = (name: string) => {
        const root = layScenario(scratch.fresh(name));
        powerReplay(before, cut1, policy, root);
        return root;
      };
      const rootB = onCut("second");
      const rec = new ListingRecorder(rootB);
      runProgram(recordingFs(rec).fs, path.join(rootB, "work"), second, CHAINED);
      const trace = rec.trace();
      for (const cut of cutsOf(trace, 0)) {
        const root = onCut("again");
        if (cut.at === 0) {
          powerReplay(trace, cut, { data: "lost", names: "lost" }, root);
          expect(listTree(root, { modes: false }), "a power cut before anything changed").toEqual(stripModes(rec.after(0)));
        } else {
          powerReplay(trace, cut, { data: "kept", names: "kept" }, root);
          expect(listTree(root, { modes: false }), `cut at ${cut.at}`).toEqual(stripModes(rec.after(cut.at)));
        }
      }
    },
    40,
  );

  test("the properties' programs are not too easy: of 40 sample programs' cuts, more than 50 lose unsynced data under data lost and more than 60 lose unsynced entries under names lost", () => {
    let lostData = 0;
    let lostNames = 0;
    for (const [program, start] of fc.sample(programAndWindow, { seed: 11, numRuns: 40 })) {
      const { trace } = recorded(program, HOLDS);
      for (const cut of cutsOf(trace, start)) {
        const kept = imageOf(trace, cut, { data: "kept", names: "kept" });
        const image = imageOf(trace, cut, cut.power!);
        if (cut.power!.data === "lost" && [...image].some(([p, v]) => v !== "dir" && kept.has(p) && kept.get(p) !== v)) lostData++;
        if (cut.power!.names === "lost" && [...kept.keys()].some((p) => !image.has(p))) lostNames++;
      }
    }
    expect(lostData).toBeGreaterThan(50);
    expect(lostNames).toBeGreaterThan(60);
  });
});

/** A listing's files without their modes (power-loss images do not keep them). */
function stripModes(listing: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(listing).map(([p, v]) => [p, v.replace(/^(file|dir) \d+/, "$1")]));
}

// Hand-written traces: the rules one at a time.
const op = (o: Record<string, unknown>) => ({ api: "t", ...o }) as FsOp;
const trace = (...entries: FsOp[]): Trace => ({ entries, truncated: false });
const open = (p: string, fd: number, flags: string | number = "w") => op({ kind: "open", path: p, flags, fd });
const write = (fd: number, text: string, position: number | null = null) => op({ kind: "write", fd, bytes: Buffer.from(text), position });
const fsync = (fd: number) => op({ kind: "fsync", fd, data: false });
const close = (fd: number) => op({ kind: "close", fd });
const image = (t: Trace, policy: PowerPolicy, settled = 0) => Object.fromEntries([...imageOf(t, { at: t.entries.length, power: { ...policy, settled } }, policy)].filter(([p]) => p.startsWith("@/work/")));
const ALL = (t: Trace) => POWER_POLICIES.map((p) => image(t, p));

describe("file data and folder entries are made durable independently", () => {
  test("an fsync of a new file makes its data durable but not its name: with names lost it is gone, with names kept it is whole", () => {
    const t = trace(open("@/work/f", 1), write(1, "data"), fsync(1), close(1));
    expect(image(t, { data: "lost", names: "lost" })).toEqual({});
    expect(image(t, { data: "lost", names: "kept" })).toEqual({ "@/work/f": "data" });
  });

  test("an fsync of the folder makes the new file's name durable but not its data: with data lost it is there and empty", () => {
    const t = trace(open("@/work/f", 1), write(1, "data"), close(1), open("@/work", 2, "r"), fsync(2), close(2));
    expect(image(t, { data: "lost", names: "lost" })).toEqual({ "@/work/f": "" });
    expect(image(t, { data: "partial", names: "lost" })).toEqual({ "@/work/f": "da" });
    expect(image(t, { data: "kept", names: "lost" })).toEqual({ "@/work/f": "data" });
  });

  test("both fsyncs make the file whole and named under every policy", () => {
    const t = trace(open("@/work/f", 1), write(1, "data"), fsync(1), close(1), open("@/work", 2, "r"), fsync(2), close(2));
    expect(ALL(t)).toEqual(POWER_POLICIES.map(() => ({ "@/work/f": "data" })));
  });

  test("a rename over a durable file, the folder not fsynced: names lost shows the old file and the temp name gone with it, names kept the new one", () => {
    const t = trace(
      open("@/work/f", 1), write(1, "old"), fsync(1), close(1),
      open("@/work/t", 2), write(2, "new"), fsync(2), close(2),
      op({ kind: "rename", from: "@/work/t", to: "@/work/f" }),
    );
    expect(image(t, { data: "lost", names: "lost" }, 4)).toEqual({ "@/work/f": "old" });
    expect(image(t, { data: "lost", names: "kept" }, 4)).toEqual({ "@/work/f": "new" });
  });

  test("an unlink not followed by an fsync of its folder is undone with names lost; after one, the file is gone under every policy", () => {
    const made = [open("@/work/f", 1), write(1, "x"), fsync(1), close(1)];
    const unlinked = trace(...made, op({ kind: "unlink", path: "@/work/f" }));
    expect(image(unlinked, { data: "lost", names: "lost" }, 4)).toEqual({ "@/work/f": "x" });
    expect(image(unlinked, { data: "lost", names: "kept" }, 4)).toEqual({});
    const synced = trace(...made, op({ kind: "unlink", path: "@/work/f" }), open("@/work", 2, "r"), fsync(2), close(2));
    expect(ALL(synced).map((i) => "@/work/f" in i)).toEqual([false, false, false, false]);
  });

  test("everything before the window counts as durable: a file written and never fsynced there survives every policy", () => {
    const t = trace(open("@/work/f", 1), write(1, "old"), close(1), open("@/work/g", 2), write(2, "new"), close(2));
    const policies = POWER_POLICIES.map((p) => image(t, p, 3));
    expect(policies.map((i) => i["@/work/f"])).toEqual(["old", "old", "old", "old"]);
    expect(policies.map((i) => i["@/work/g"])).toEqual(["", "n", undefined, undefined]);
  });

  test("appended data not yet fsynced: data lost keeps what the last fsync made durable, partial a prefix, kept all of it", () => {
    const t = trace(open("@/work/f", 1, "a"), write(1, "abcd"), fsync(1), write(1, "efgh"), close(1), open("@/work", 2, "r"), fsync(2), close(2));
    expect(POWER_POLICIES.map((p) => image(t, p)["@/work/f"])).toEqual(["abcd", "abcd", "abcd", "abcdefgh"]);
  });

  test("a file fsynced at 2 bytes and then appended 1: partial keeps the 2 fsynced bytes, never fewer", () => {
    const t = trace(open("@/work/f", 1, "a"), write(1, "ab"), fsync(1), write(1, "c"));
    expect(image(t, { data: "partial", names: "kept" })["@/work/f"]).toBe("ab");
  });
});

describe("entries live in their folder, and paths resolve as the kernel resolves them", () => {
  const rename = (from: string, to: string) => op({ kind: "rename", from, to });
  const syncDir = (p: string, fd: number) => [open(p, fd, "r"), fsync(fd), close(fd)];

  test("a folder whose entry was fsynced, then renamed and the rename fsynced, keeps that entry with names lost", () => {
    const t = trace(op({ kind: "mkdir", path: "@/work/d" }), open("@/work/d/a", 1), fsync(1), close(1), ...syncDir("@/work/d", 2), rename("@/work/d", "@/work/e"), ...syncDir("@/work", 3));
    expect(Object.keys(image(t, { data: "lost", names: "lost" })).sort()).toEqual(["@/work/e", "@/work/e/a"]);
  });

  test("a write through a symbolic link lands in the file it names", () => {
    const t = trace(op({ kind: "symlink", target: "a", path: "@/work/b" }), open("@/work/b", 1), write(1, "x"), close(1));
    expect(image(t, { data: "kept", names: "kept" })).toEqual({ "@/work/a": "x", "@/work/b": "-> a" });
  });

  test("a write at a position through a descriptor opened to append lands at the end (Linux)", () => {
    const t = trace(open("@/work/a", 1, "a"), write(1, "x", 3));
    expect(image(t, { data: "kept", names: "kept" })).toEqual({ "@/work/a": "x" });
  });

  test("a rename of one name of a file onto another name of it leaves both (POSIX)", () => {
    const t = trace(open("@/work/a", 1), write(1, "x"), close(1), op({ kind: "link", from: "@/work/a", to: "@/work/b" }), rename("@/work/a", "@/work/b"));
    expect(image(t, { data: "kept", names: "kept" })).toEqual({ "@/work/a": "x", "@/work/b": "x" });
  });
});
