// What the model tests share: scratch folders (on a tmpfs when there is one), a scenario folder as
// the sandbox lays it out (work/, cwd/, tmp/), the recording fs over it in this process, a listing
// of a folder to compare two disks by, and the fast-check settings of every property.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, test } from "vitest";
import { crashCuts } from "../../crash/cuts.js";
import type { Cut, Trace, TraceEntry } from "../../crash/model.js";
import { runProgram, type ProgramOptions, type Step } from "./fs-programs.js";
import { Recorder, RECORD_LIMITS, type BeforeOp } from "../../sandbox/interposition/recorder.js";
import { createRecordingFs, PendingOps } from "../../sandbox/interposition/recording-fs.js";

/**
 * The settings of the model tests' properties: a fixed seed, so a run repeats, unless
 * MODEL_TEST_SEED names another (or "random"); MODEL_TEST_RUNS multiplies the number of runs.
 */
export function propertySettings(numRuns: number): { numRuns: number; seed?: number } {
  const runs = Math.max(1, Math.round(numRuns * Number(process.env.MODEL_TEST_RUNS ?? 1)));
  const seed = process.env.MODEL_TEST_SEED;
  if (seed === "random") return { numRuns: runs };
  return { numRuns: runs, seed: seed === undefined ? 20_240_601 : Number(seed) };
}

/**
 * A test that `predicate` holds for `numRuns` values of `arbitraries` (fast-check shrinks a
 * failure to its smallest case and prints it with the seed). fast-check is called directly:
 * loading @fast-check/vitest (it loads vitest's runner) took seconds here, longer than most of
 * these tests take to run.
 */
export function propertyTest<Ts extends unknown[]>(
  title: string,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...values: Ts) => void | Promise<void>,
  numRuns: number,
  examples: Ts[] = [],
): void {
  test(title, async () => {
    const property = fc.asyncProperty(...(arbitraries as unknown as [fc.Arbitrary<unknown>]), async (...values: unknown[]) => {
      await predicate(...(values as Ts));
    });
    await fc.assert(property as fc.IAsyncProperty<unknown>, { ...propertySettings(numRuns), examples: examples as unknown as [unknown][] });
  });
}

/** A scratch folder for the calling test file, removed after its tests; `fresh(name)` makes a new folder in it. */
export function scratchFolder(): { fresh: (name?: string) => string } {
  const base = fs.existsSync("/dev/shm") && isWritable("/dev/shm") ? "/dev/shm" : os.tmpdir();
  let root: string | undefined;
  let made = 0;
  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });
  return {
    fresh: (name = "f") => {
      root ??= fs.mkdtempSync(path.join(base, "model-tests-"));
      const dir = path.join(root, `${name}-${++made}`);
      fs.mkdirSync(dir);
      return dir;
    },
  };
}

function isWritable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Makes `root` a scenario folder: work/, cwd/ and tmp/ in it, as the sandbox makes one. */
export function layScenario(root: string): string {
  for (const sub of ["work", "cwd", "tmp"]) fs.mkdirSync(path.join(root, sub), { recursive: true });
  return root;
}

/**
 * A recorder that lists the scenario folder after each entry it keeps: `states[k]` is the disk
 * after entries 0..k, and `initial` the disk before any of them.
 */
export class ListingRecorder extends Recorder {
  readonly states: Listing[] = [];
  readonly initial: Listing;

  constructor(root: string, beforeOp?: BeforeOp) {
    super(root, { limits: RECORD_LIMITS, beforeOp });
    this.initial = listTree(root);
  }

  override push(entry: TraceEntry): void {
    super.push(entry);
    this.states.push(listTree(this.root));
  }

  /** The disk after the first `n` entries. */
  after(n: number): Listing {
    return n === 0 ? this.initial : this.states[n - 1]!;
  }
}

/** The recording `fs` over `root`, recording into `rec`. */
export function recordingFs(rec: Recorder): { fs: typeof fs; pending: PendingOps } {
  const pending = new PendingOps();
  return { fs: createRecordingFs(() => rec, pending), pending };
}

/** A folder's content by path: "dir <mode>", "file <mode> <content>", "link -> <target>"; with `modes` false, no modes. */
export type Listing = Record<string, string>;

/**
 * Every path below `dir`, sorted, with what it is: a folder, a file (its content as a JSON
 * string of its bytes in latin1) or a link (its target, a target inside `root` written
 * "<root>/..."), folders and files with their permission bits unless `modes` is false. With
 * `links`, files that are one file (hard links) say which path they share it with.
 */
export function listTree(dir: string, options: { modes?: boolean; links?: boolean; root?: string } = {}): Listing {
  const { modes = true, links = false, root = dir } = options;
  const out: Listing = {};
  const byInode = new Map<bigint, string>();
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const abs = path.join(d, name);
      const key = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(abs, { bigint: true });
      const mode = modes ? ` ${(Number(st.mode) & 0o7777).toString(8)}` : "";
      if (st.isSymbolicLink()) {
        const target = fs.readlinkSync(abs);
        out[key] = `link -> ${target === root ? "<root>" : target.startsWith(root + "/") ? `<root>/${target.slice(root.length + 1)}` : target}`;
      } else if (st.isDirectory()) {
        out[key] = `dir${mode}`;
        walk(abs, key);
      } else {
        const shared = links && st.nlink > 1n ? byInode.get(st.ino) : undefined;
        if (links && st.nlink > 1n && shared === undefined) byInode.set(st.ino, key);
        out[key] = `file${mode} ${JSON.stringify(fs.readFileSync(abs).toString("latin1"))}${shared ? ` (one file with ${shared})` : ""}`;
      }
    }
  };
  walk(dir, "");
  return out;
}

/** Copies the folder `from` into the new folder `to`, links as links. */
export function copyFolder(from: string, to: string): string {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  return to;
}

/**
 * Lays the disk `base` leaves in a fresh scenario folder (`start`), records `program` over a copy
 * of it, and gives every cut of its trace: after each entry, and inside each write at `fractions`.
 */
export function recordOverBase(scratch: { fresh: (name?: string) => string }, base: Step[], program: Step[], options: ProgramOptions, fractions: number[]): { start: string; trace: Trace; cuts: Cut[] } {
  const start = layScenario(scratch.fresh("base"));
  runProgram(fs, path.join(start, "work"), base, options);
  const root = copyFolder(start, `${start}-recorded`);
  const rec = new Recorder(root);
  runProgram(recordingFs(rec).fs, path.join(root, "work"), program, options);
  const trace = rec.trace();
  const every = Array.from({ length: trace.entries.length + 1 }, (_, at): Cut => ({ at }));
  const torn = crashCuts(trace, 0, trace.entries.length, fractions).filter((c) => c.bytes !== undefined);
  return { start, trace, cuts: [...every, ...torn] };
}
