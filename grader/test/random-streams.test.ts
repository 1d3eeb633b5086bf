// Simulated processes draw random numbers as real ones do: every process start has a stream of its
// own, a restart with the crashed process's id included, and the same scenario draws the same
// numbers on every run.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildHost } from "../sandbox/supervisor/build-host.js";
import { Sandbox } from "../sandbox/supervisor/host-client.js";
import { DEFAULT_LIMITS } from "../sandbox/messages/limits.js";
import type { CallResult, ScenarioStep } from "../sandbox/messages/scenario.js";
import { processSeed, seededMath } from "../sandbox/runtime/target/random-streams.js";
import { bundleTarget } from "../target/bundle.js";

let work: { path: string; cleanup: () => Promise<void> };
let box: Sandbox;
/** A sandbox over the same target, with a work folder `name` of its own. */
let sandboxNamed: (name: string) => Sandbox;

beforeAll(async () => {
  work = await dir({ unsafeCleanup: true });
  const hostFile = await buildHost(work.path);
  const targetDir = path.join(work.path, "target");
  fs.mkdirSync(targetDir);
  // Writes a temp file named by Math.random, as a student's checkpoint may, and returns the name.
  fs.writeFileSync(
    path.join(targetDir, "t.ts"),
    `import fs from "node:fs";
     export function draw(dir: string) { const name = Math.random().toString(36).slice(2); fs.writeFileSync(dir + "/" + name + ".tmp", "x"); return [process.pid, name]; }`,
  );
  const bundle = await bundleTarget({ targetDir, file: "t.ts", outFile: path.join(targetDir, "t.cjs") });
  if (!bundle.ok) throw new Error(bundle.problem);
  sandboxNamed = (name) => new Sandbox({ hostFile, config: { modules: { t: bundle.file }, targetDir, work: path.join(work.path, name), callMs: 5_000, seed: 7 }, limits: DEFAULT_LIMITS });
  box = sandboxNamed("w");
});
afterAll(async () => {
  await box.close();
  await work.cleanup();
});

const draw: ScenarioStep = { call: "draw", args: [{ $path: "work" }], want: "value" };

/** The [pid, name] a draw returned. */
function drawn(result: CallResult | undefined): [number, string] {
  if (result?.status !== "returned") throw new Error(`draw did not return: ${JSON.stringify(result)}`);
  return result.value.value as [number, string];
}

describe("random numbers of simulated processes", () => {
  test("two processes of one scenario draw different numbers; calls in one process continue its stream", async () => {
    const { results } = await box.run("t", { steps: [draw, draw, { fresh: true }, draw] });
    const [a, b, c] = results.map(drawn);
    expect(new Set([a![1], b![1], c![1]]).size).toBe(3);
    expect(a![0]).toBe(b![0]);
    expect(c![0]).not.toBe(a![0]);
  });

  test("a restart with the crashed process's id never replays its numbers, so its temp name is new", async () => {
    const crashed = await box.run("t", { steps: [draw] }, { record: true });
    const [pid, name] = drawn(crashed.results[0]);
    const cuts = [{ at: crashed.trace!.entries.length }, { at: 0 }];
    const restarts = await box.runMany("t", crashed.traceId!, cuts, [draw], { pid });
    for (const restart of restarts) {
      const [againPid, againName] = drawn(restart.results[0]);
      expect(againPid).toBe(pid);
      expect(againName).not.toBe(name);
    }
    // Two crash states are two worlds: each restart draws a stream of its own.
    expect(drawn(restarts[0]!.results[0])[1]).not.toBe(drawn(restarts[1]!.results[0])[1]);
  });

  test("the same scenario draws the same numbers every time it runs", async () => {
    const first = await box.run("t", { steps: [draw, { fresh: true }, draw] });
    const second = await box.run("t", { steps: [draw, { fresh: true }, draw] });
    expect(second.results.map((r) => drawn(r)[1])).toEqual(first.results.map((r) => drawn(r)[1]));
  });

  test("a case replayed alone gives its processes the ids and numbers they had as a later case of the grade", async () => {
    /** One case: a recorded run, then a restart with the crashed process's id from its end. */
    const oneCase = async (on: Sandbox) => {
      on.beginCase();
      const crashed = await on.run("t", { steps: [draw, { fresh: true }, draw] }, { record: true });
      const [restart] = await on.runMany("t", crashed.traceId!, [{ at: crashed.trace!.entries.length }], [draw, { fresh: true }, draw], { pid: drawn(crashed.results[0])[0] });
      return [...crashed.results, ...restart!.results].map(drawn);
    };
    // The grade: other cases ran on its sandbox first, and recorded traces of their own.
    const [graded, alone] = [sandboxNamed("grade"), sandboxNamed("alone")];
    try {
      const grade = [await oneCase(graded), await oneCase(graded), await oneCase(graded)];
      expect(await oneCase(alone)).toEqual(grade[2]);
      // Still, the four processes of a case never draw the same numbers.
      expect(new Set(grade[2]!.map(([, name]) => name)).size).toBe(4);
    } finally {
      await Promise.all([graded.close(), alone.close()]);
    }
  });

  test("seeds depend on the check's seed and the process's place, and streams are spread over [0, 1)", () => {
    const place = { from: [{ traceId: "t1", cut: { at: 3 } }], pid: 4001 };
    const seeds = new Set([processSeed(1, place, 0), processSeed(2, place, 0), processSeed(1, place, 1), processSeed(1, { ...place, pid: 4002 }, 0), processSeed(1, {}, 0)]);
    expect(seeds.size).toBe(5);
    const m = seededMath(processSeed(1, place, 0));
    const xs = Array.from({ length: 20_000 }, () => m.random());
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    expect(new Set(xs).size).toBe(xs.length);
  });
});
