// The scheduler behind the concurrency checks: which orders it runs (partial-order reduction over
// simulated writers), and real writer processes that wait for their turn at every call.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exploreOrders, type Chooser, type Execution } from "../concurrency/explore.js";
import { conflict } from "../concurrency/footprint.js";
import { World } from "../concurrency/world.js";
import { SOLUTION_DIR } from "../paths.js";
import { Actor } from "../sandbox/supervisor/actor-client.js";
import { EVERY_NAME, type Footprint } from "../sandbox/messages/actor.js";
import { buildHost } from "../sandbox/supervisor/build-host.js";
import { DEFAULT_LIMITS } from "../sandbox/messages/limits.js";
import { bundleTarget } from "../target/bundle.js";

const w = (...names: string[]): Footprint => ({ reads: [], writes: names });
const r = (...names: string[]): Footprint => ({ reads: names, writes: [] });

/** Writers as fixed lists of operations; `bad` names a run that goes wrong from its order alone. */
function simulated(writers: Footprint[][], bad?: (order: string) => boolean) {
  const orders: string[] = [];
  const run = async (choose: Chooser): Promise<Execution> => {
    const next = writers.map(() => 0);
    const exec: Execution = { steps: [], choices: [], problem: null, loads: 0 };
    for (;;) {
      const waiting = writers.flatMap((ops, i) => (next[i]! < ops.length ? [i] : []));
      if (waiting.length === 0) break;
      exec.choices.push({ pending: new Map(waiting.map((i) => [i, writers[i]![next[i]!]!])) });
      const chosen = choose(exec.steps.length, waiting, exec.steps);
      const index = next[chosen]!;
      next[chosen] = index + 1;
      exec.steps.push({ writer: chosen, what: `${chosen}:${index}`, footprint: writers[chosen]![index]!, failed: false });
    }
    const order = exec.steps.map((s) => "AB"[s.writer]).join("");
    orders.push(order);
    if (bad?.(order)) exec.problem = { kind: "run", afterStep: exec.steps.length, went: { kind: "reader-unfinished", final: true } };
    return exec;
  };
  return { run, orders };
}

describe("which orders are run", () => {
  test("names conflict when one side changes a name the other touches; a listing covers its folder's names", () => {
    expect(conflict(w("@/work/a"), r("@/work/a"))).toBe(true);
    expect(conflict(r("@/work/a"), r("@/work/a"))).toBe(false);
    expect(conflict(w("@/work/a"), w("@/work/b"))).toBe(false);
    expect(conflict(w("@/work/a"), r("@/work/*"))).toBe(true);
    expect(conflict(w("@/other/a"), r("@/work/*"))).toBe(false);
  });

  test("a program a writer runs (it may change any name) conflicts with every step that touches a name", () => {
    expect(conflict(w(EVERY_NAME), r("@/work/a"))).toBe(true);
    expect(conflict(w("@/tmp/x"), w(EVERY_NAME))).toBe(true);
    expect(conflict(w(EVERY_NAME), w(EVERY_NAME))).toBe(true);
    expect(conflict(w(EVERY_NAME), { reads: [], writes: [] })).toBe(false);
  });

  test("writers on private names run in one order", async () => {
    const { run, orders } = simulated([[w("a1"), w("a1"), r("a1")], [w("b1"), w("b1"), r("b1")]]);
    const result = await exploreOrders(run, { runs: 100, steps: 10_000 });
    expect(result).toMatchObject({ runs: 1, complete: true, failed: null });
    expect(orders).toHaveLength(1);
  });

  test("one shared rename among private calls: both of its orders, in a few runs", async () => {
    const { run, orders } = simulated([[w("ta"), r("ta"), w("ta", "ck")], [w("tb"), r("tb"), w("tb", "ck")]]);
    const result = await exploreOrders(run, { runs: 100, steps: 10_000 });
    // Without sleep sets one order may run twice: 3 runs at most, never the 20 interleavings.
    expect(result.complete).toBe(true);
    expect(result.runs).toBeLessThanOrEqual(3);
    const renameOrder = orders.map((o) => (o.lastIndexOf("A") < o.lastIndexOf("B") ? "A then B" : "B then A"));
    expect(new Set(renameOrder)).toEqual(new Set(["A then B", "B then A"]));
  });

  test("every call on one shared name: every interleaving, each once", async () => {
    const { run, orders } = simulated([[w("t"), w("t"), w("t")], [w("t"), w("t"), w("t")]]);
    const result = await exploreOrders(run, { runs: 1000, steps: 100_000 });
    expect(result).toMatchObject({ runs: 20, complete: true });
    expect(new Set(orders).size).toBe(20);
  });

  test("stops at the first order that goes wrong, and within its budget", async () => {
    const shared = [[w("t"), w("t"), w("t")], [w("t"), w("t"), w("t")]];
    const bad = (o: string) => o.startsWith("BBB");
    const failing = await exploreOrders(simulated(shared, bad).run, { runs: 1000, steps: 100_000 });
    expect(failing.failed?.steps.map((s) => "AB"[s.writer]).join("")).toBe("BBBAAA");
    expect(failing.failed?.problem).not.toBeNull();
    const limited = await exploreOrders(simulated(shared).run, { runs: 5, steps: 100_000 });
    expect(limited).toMatchObject({ runs: 5, complete: false });
  });
});

/**
 * `run` with the names its footprints hold replaced by those at the same place in `like` (the n-th
 * name it mentions is `like`'s n-th): only names that `like` never mentions (drawn at random, such
 * as a temp file's) may differ between the two.
 */
function namedLike(run: Execution, like: Execution): Execution {
  const names = (e: Execution) => [...new Set([...e.steps.map((s) => s.footprint), ...e.choices.flatMap((c) => [...c.pending.values()])].flatMap((f) => [...f.reads, ...f.writes]))];
  const [own, theirs] = [names(run), names(like)];
  expect(own).toHaveLength(theirs.length);
  const to = new Map(own.map((name, i) => [name, theirs[i]!]));
  for (const [name, renamed] of to) if (theirs.includes(name)) expect(renamed).toBe(name);
  const rename = (f: Footprint): Footprint => ({ reads: f.reads.map((n) => to.get(n)!), writes: f.writes.map((n) => to.get(n)!) });
  return { ...run, steps: run.steps.map((s) => ({ ...s, footprint: rename(s.footprint) })), choices: run.choices.map((c) => ({ pending: new Map([...c.pending].map(([w, f]) => [w, rename(f)])) })) };
}

describe("real writer processes", () => {
  let work: { path: string; cleanup: () => Promise<void> };
  let actors: Actor[] = [];
  let world: (target: string) => Promise<World>;

  beforeAll(async () => {
    work = await dir({ unsafeCleanup: true });
    const hostFile = await buildHost(work.path);
    world = async (source) => {
      const targetDir = fs.mkdtempSync(path.join(work.path, "target-"));
      fs.writeFileSync(path.join(targetDir, "checkpoint.ts"), source);
      const bundle = await bundleTarget({ targetDir, file: "checkpoint.ts", outFile: path.join(targetDir, "c.cjs") });
      if (!bundle.ok) throw new Error(bundle.problem);
      const config = { bundle: bundle.file, entry: "checkpoint.ts", targetDir };
      const started = await Promise.all([0, 1, 2].map(() => Actor.start(hostFile, config, DEFAULT_LIMITS, () => {}, { folder: targetDir })));
      actors.push(...started);
      return new World(started.slice(0, 2), started[2]!, path.join(work.path, "runs"), DEFAULT_LIMITS, 1);
    };
  });
  afterAll(async () => {
    await Promise.all(actors.map((a) => a.close()));
    await work.cleanup();
  });

  const setup = { old: { state: { step: 1 } }, states: [{ by: "A" }, { by: "B", longer: true }] };

  test("each writer is a process of its own, and the same choices give the same run", async () => {
    const reference = await world(fs.readFileSync(path.join(SOLUTION_DIR, "checkpoint.ts"), "utf8"));
    expect(new Set(reference.pids).size).toBe(3);
    const aFirst: Chooser = (_d, waiting) => waiting[0]!;
    const first = await reference.run(setup, aFirst);
    const again = await reference.run(setup, aFirst);
    expect(first.problem).toBeNull();
    // The same calls by the same writers, with the same outcomes, the same choices offered and the
    // same loads; the names a run draws at random (its temp files') are its own.
    expect(namedLike(again, first)).toEqual(first);
    expect(first.steps.map((s) => s.writer)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    // A load before the first step, after each rename onto the checkpoint (the only steps that
    // change what the reference's load reads), and one at the end.
    expect(first.steps.filter((s) => s.footprint.writes.some((n) => n.endsWith("/checkpoint.json")))).toHaveLength(2);
    expect(first.loads).toBe(4);
  });

  test("a shared temp name tears the checkpoint in some order, found by running the orders", async () => {
    const shared = await world(`
      import fs from "node:fs";
      export function atomicCheckpoint(p: string, s: unknown) { fs.writeFileSync(p + ".tmp", JSON.stringify(s)); fs.renameSync(p + ".tmp", p); }
      export function loadCheckpoint(p: string) { return fs.existsSync(p) ? JSON.parse(fs.readFileSync(p, "utf8")) : null; }
    `);
    const oneAfterTheOther = await shared.run(setup, (_d, waiting) => waiting[0]!);
    expect(oneAfterTheOther.problem).toBeNull();
    const result = await exploreOrders((choose) => shared.run(setup, choose), { runs: 300, steps: 10_000 });
    expect(result.failed?.problem?.went.kind).toMatch(/reader-saw|writer-failed/);
  });

  test("a descriptor whose file another writer renamed writes the file under its new name: the reader loads right then and sees it torn", async () => {
    const shared = await world(`
      import fs from "node:fs";
      export function atomicCheckpoint(p: string, s: unknown) { const fd = fs.openSync(p + ".tmp", "w"); fs.writeSync(fd, JSON.stringify(s)); fs.closeSync(fd); fs.renameSync(p + ".tmp", p); }
      export function loadCheckpoint(p: string) { return fs.existsSync(p) ? JSON.parse(fs.readFileSync(p, "utf8")) : null; }
    `);
    // A opens the shared temp; B writes it and renames it over the checkpoint; then A writes through its descriptor.
    const exec = await shared.run(setup, (i, waiting) => (i === 0 || !waiting.includes(1) ? waiting[0]! : 1));
    const aWrites = exec.steps.findIndex((s) => s.writer === 0 && s.what.startsWith("writeSync"));
    expect(exec.steps.slice(0, aWrites).map((s) => s.writer)).toEqual([0, 1, 1, 1, 1]);
    expect(exec.steps[aWrites]!.what).toMatch(/^writeSync writes \d+ bytes to checkpoint\.json \(opened as checkpoint\.json\.tmp, renamed since\)$/);
    expect(exec.steps[aWrites]!.footprint.writes).toEqual(["@/work/checkpoint.json"]);
    // The same call as data, beside its words: what the class dashboard places failures by.
    expect(exec.steps[aWrites]!.did).toEqual({ kind: "write", touched: "checkpoint.json", since: "renamed since" });
    // The first torn load is the one right after that write, not a later symptom.
    expect(exec.problem).toMatchObject({ afterStep: aWrites + 1, went: { kind: "reader-saw", final: false } });
  });
});
