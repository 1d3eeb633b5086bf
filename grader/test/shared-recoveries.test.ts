// Crash states that share a recovery run (sandbox/runtime/shared-runs.ts) get the replies they
// would get each recovered on its own: checkpoints in nine styles, correct and buggy, are
// crashed at every point of a write and recovered (load, write another state, load) by a host
// that shares runs and by one that does not; the replies are the same, and the runs are shared
// only where the recovery's footprint is known.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { crashCuts, findMark } from "../crash/cuts.js";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { buildHost } from "../sandbox/supervisor/build-host.js";
import { Sandbox } from "../sandbox/supervisor/host-client.js";
import { DEFAULT_LIMITS } from "../sandbox/messages/limits.js";
import type { ManyReply } from "../sandbox/messages/host.js";
import type { ScenarioStep } from "../sandbox/messages/scenario.js";
import { bundleTarget } from "../target/bundle.js";

const CHECKPOINT = { $path: "work/checkpoint.json" };
const write = (state: unknown): ScenarioStep => ({ call: "atomicCheckpoint", args: [CHECKPOINT, state] });
const load: ScenarioStep = { call: "loadCheckpoint", args: [CHECKPOINT] };

/** Checkpoint modules of other styles, written here: what each does differently is in its name. */
const INLINE: Record<string, string> = {
  // Removes every temp file it finds before loading: its recovery lists the folder and removes what the crash left.
  "cleans-temps": `import fs from "node:fs"; import path from "node:path";
    export function atomicCheckpoint(file: string, state: unknown) { const t = file + "." + process.pid + ".tmp"; fs.writeFileSync(t, JSON.stringify(state)); fs.renameSync(t, file); }
    export function loadCheckpoint(file: string) { const dir = path.dirname(file);
      for (const n of fs.readdirSync(dir)) if (n.endsWith(".tmp")) fs.unlinkSync(path.join(dir, n));
      return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null; }`,
  // A bug: loads the temp file when there is one, so each crash state inside the write loads something else.
  "loads-temp": `import fs from "node:fs";
    export function atomicCheckpoint(file: string, state: unknown) { const t = file + ".tmp"; fs.writeFileSync(t, JSON.stringify(state)); fs.renameSync(t, file); }
    export function loadCheckpoint(file: string) { for (const f of [file + ".tmp", file]) { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch {} } return null; }`,
  // Names its temp files with Math.random: a recovery that writes draws numbers, and is its own.
  "random-names": `import fs from "node:fs";
    export function atomicCheckpoint(file: string, state: unknown) { const t = file + "." + Math.random().toString(36).slice(2) + ".tmp"; const fd = fs.openSync(t, "wx"); fs.writeSync(fd, JSON.stringify(state)); fs.fsyncSync(fd); fs.closeSync(fd); fs.renameSync(t, file); }
    export function loadCheckpoint(file: string) { try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return null; } }`,
  // Renames with a program: what a program reads is not known, so its recoveries are never shared.
  "renames-with-mv": `import fs from "node:fs"; import { execFileSync } from "node:child_process";
    export function atomicCheckpoint(file: string, state: unknown) { const t = file + ".tmp"; fs.writeFileSync(t, JSON.stringify(state)); execFileSync("mv", [t, file]); }
    export function loadCheckpoint(file: string) { execFileSync("true"); try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return null; } }`,
  // A bug: renames the temp file over the checkpoint before loading, if there is one; where there is none the rename fails, and that failure looked too.
  "renames-temp-first": `import fs from "node:fs";
    export function atomicCheckpoint(file: string, state: unknown) { const t = file + ".tmp"; fs.writeFileSync(t, JSON.stringify(state)); fs.renameSync(t, file); }
    export function loadCheckpoint(file: string) { try { fs.renameSync(file + ".tmp", file); } catch {} try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return null; } }`,
  // A bug: copies the temp file aside and loads the copy: a copy reads its source.
  "loads-a-copy": `import fs from "node:fs";
    export function atomicCheckpoint(file: string, state: unknown) { const t = file + ".tmp"; fs.writeFileSync(t, JSON.stringify(state)); fs.renameSync(t, file); }
    export function loadCheckpoint(file: string) { try { fs.copyFileSync(file + ".tmp", file + ".copy"); } catch { fs.copyFileSync(file, file + ".copy"); } try { return JSON.parse(fs.readFileSync(file + ".copy", "utf8")); } catch { return null; } }`,
  // Reads through a descriptor it opened, with fs.promises' and callbacks' reads left unused: the open names the path.
  "reads-by-descriptor": `import fs from "node:fs";
    export function atomicCheckpoint(file: string, state: unknown) { const t = file + ".tmp"; fs.writeFileSync(t, JSON.stringify(state)); fs.renameSync(t, file); }
    export function loadCheckpoint(file: string) { let fd: number; try { fd = fs.openSync(file, "r"); } catch { return null; }
      try { const size = fs.fstatSync(fd).size; const b = Buffer.alloc(size); fs.readSync(fd, b, 0, size, 0); return JSON.parse(b.toString("utf8")); } finally { fs.closeSync(fd); } }`,
};

/** The bundled file of each target, by name: the reference, the chunked-writes fixture, and the inline ones. */
const bundles: Record<string, string> = {};
let work: { path: string; cleanup: () => Promise<void> };
let hostFile: string;
const boxes: Sandbox[] = [];

beforeAll(async () => {
  work = await dir({ unsafeCleanup: true });
  hostFile = await buildHost(work.path);
  const sources: [string, string][] = [
    ["reference", SOLUTION_DIR],
    ["chunked-writes", path.join(REPO_ROOT, "grader/fixtures/correct/chunked-writes")],
  ];
  for (const [name, source] of Object.entries(INLINE)) {
    const targetDir = path.join(work.path, name);
    fs.mkdirSync(targetDir);
    fs.writeFileSync(path.join(targetDir, "checkpoint.ts"), source);
    sources.push([name, targetDir]);
  }
  for (const [name, targetDir] of sources) {
    const bundle = await bundleTarget({ targetDir, file: "checkpoint.ts", outFile: path.join(work.path, `${name}.cjs`) });
    if (!bundle.ok) throw new Error(bundle.problem);
    bundles[name] = bundle.file;
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(boxes.map((b) => b.close()));
  await work.cleanup();
});

function sandbox(name: string, shareRecoveries: boolean): Sandbox {
  const targetDir = path.dirname(bundles[name]!);
  const box = new Sandbox({ hostFile, config: { modules: { checkpoint: bundles[name]! }, targetDir, work: path.join(work.path, `${name}-${shareRecoveries}`), callMs: 20_000, seed: 3, shareRecoveries }, limits: { ...DEFAULT_LIMITS, callMs: 20_000 } });
  boxes.push(box);
  return box;
}

/** A state of about `kib` KiB. */
function stateOf(tag: string, kib: number): unknown {
  return { tag, notes: Array.from({ length: kib * 8 }, (_, i) => `${tag}-${i}-${"x".repeat(100)}`) };
}

/** Every crash state of the second of two writes, each recovered by `steps`: the replies, and how many were shared. */
async function recoverEveryCrash(box: Sandbox, steps: ScenarioStep[]): Promise<{ replies: ManyReply[]; shared: number }> {
  const run = await box.run("checkpoint", { steps: [write(stateOf("old", 4)), write(stateOf("new", 6))] }, { record: true });
  const trace = run.trace!;
  const start = findMark(trace, "call:atomicCheckpoint", findMark(trace, "call:atomicCheckpoint"));
  const cuts = crashCuts(trace, start, trace.entries.length, [0.25, 0.75]);
  const replies = await box.runMany("checkpoint", run.traceId!, cuts, steps);
  return { replies, shared: replies.filter((r) => r.shared).length };
}

/** What a reply says of each call: how it ended, and the value's digest or the error. */
function outcomes(replies: ManyReply[]): string[] {
  return replies.map((r) => JSON.stringify(r.results.map((c) => (c.status === "returned" ? c.value.digest : c.status === "threw" ? `${c.error.name}: ${c.error.message}` : c.status))));
}

const RECOVERY: ScenarioStep[] = [load, write({ after: true }), load];

describe("crash states that share a recovery get the replies each would get alone", () => {
  test.each(["reference", "chunked-writes", "cleans-temps", "loads-temp", "renames-temp-first", "loads-a-copy", "random-names", "renames-with-mv", "reads-by-descriptor"])("%s: the same replies with and without sharing, for a recovery that loads, and for one that loads, saves and loads", async (name) => {
    const [alone, sharing] = [sandbox(name, false), sandbox(name, true)];
    for (const steps of [[load], RECOVERY]) {
      const [a, b] = await Promise.all([recoverEveryCrash(alone, steps), recoverEveryCrash(sharing, steps)]);
      expect(a.shared).toBe(0);
      expect(outcomes(b.replies), JSON.stringify(steps)).toEqual(outcomes(a.replies));
    }
  }, 120_000);

  test("a checkpoint written in 1 KiB chunks: the crash states inside the temp file's writes share the run that loads the old checkpoint", async () => {
    const { replies, shared } = await recoverEveryCrash(sandbox("chunked-writes", true), [load]);
    expect(replies.length).toBeGreaterThan(20);
    // Every state before the rename loads the old checkpoint: all but the first share its run; after it, all but one share the new.
    expect(shared).toBeGreaterThanOrEqual(replies.length - 3);
  }, 120_000);

  test("a recovery that lists the folder shares runs only between crash states with the same names in it", async () => {
    const { replies, shared } = await recoverEveryCrash(sandbox("cleans-temps", true), [load]);
    const alone = await recoverEveryCrash(sandbox("cleans-temps", false), [load]);
    expect(outcomes(replies)).toEqual(outcomes(alone.replies));
    expect(shared).toBeGreaterThan(0);
    expect(shared).toBeLessThan(replies.length - 1);
  }, 120_000);

  test("a recovery that ran a program, or drew random numbers, is shared with no other crash state", async () => {
    expect((await recoverEveryCrash(sandbox("renames-with-mv", true), [load])).shared).toBe(0);
    expect((await recoverEveryCrash(sandbox("random-names", true), RECOVERY)).shared).toBe(0);
    // The same target's recovery that only loads draws nothing, and is shared.
    expect((await recoverEveryCrash(sandbox("random-names", true), [load])).shared).toBeGreaterThan(0);
  }, 120_000);
});
