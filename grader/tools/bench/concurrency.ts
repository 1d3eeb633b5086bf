// The concurrency engine's side of the benchmark: writer processes over the reference solution,
// every order that matters of two writers, and how many calls, orders and loads it runs per second.
import fs from "node:fs";
import path from "node:path";
import { exploreOrders } from "../../concurrency/explore.js";
import { World } from "../../concurrency/world.js";
import { stateOfSize } from "../../grading/states.js";
import { SOLUTION_DIR } from "../../paths.js";
import { Actor } from "../../sandbox/supervisor/actor-client.js";
import { buildHost } from "../../sandbox/supervisor/build-host.js";
import { DEFAULT_LIMITS } from "../../sandbox/messages/limits.js";
import { bundleTarget } from "../../target/bundle.js";

export interface ConcurrencyCost {
  /** Whole runs (every writer's call from start to end, in one order) per second. */
  ordersPerSecond: number;
  /** File-system calls let through one at a time, per second. */
  callsPerSecond: number;
  /** Orders one exploration of two writers needs for the reference solution. */
  ordersPerExploration: number;
}

/** Explores two writers of the reference solution `repeats` times (a small and an 80 KiB state) and times it. */
export async function concurrencyCost(work: string, repeats: number): Promise<ConcurrencyCost> {
  const hostFile = await buildHost(path.join(work, "actors"));
  const bundle = await bundleTarget({ targetDir: SOLUTION_DIR, file: "checkpoint.ts", outFile: path.join(work, "actors", "checkpoint.cjs") });
  if (!bundle.ok) throw new Error(bundle.problem);
  const config = { bundle: bundle.file, entry: "checkpoint.ts", targetDir: SOLUTION_DIR };
  const actors = await Promise.all([0, 1, 2].map(() => Actor.start(hostFile, config, DEFAULT_LIMITS, () => {}, { folder: path.join(work, "actors") })));
  try {
    const world = new World(actors.slice(0, 2), actors[2]!, path.join(work, "actors", "runs"), DEFAULT_LIMITS, 1);
    const setup = { old: { state: { step: 1 } }, states: [stateOfSize(80 * 1024, 7), { step: 2 }] };
    let calls = 0;
    let orders = 0;
    const started = process.hrtime.bigint();
    for (let i = 0; i < repeats; i++) {
      const explored = await exploreOrders(async (choose) => {
        const exec = await world.run(setup, choose);
        calls += exec.steps.length;
        return exec;
      }, { runs: 1000, steps: 1_000_000 });
      if (explored.failed || !explored.complete) throw new Error("bench: the reference solution failed a concurrency run");
      orders += explored.runs;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { ordersPerSecond: orders / seconds, callsPerSecond: calls / seconds, ordersPerExploration: orders / repeats };
  } finally {
    await Promise.all(actors.map((a) => a.close()));
    fs.rmSync(path.join(work, "actors"), { recursive: true, force: true });
  }
}
