// concurrency.two-writers: two processes save the same checkpoint at once while a reader loads it
// after every step, in every order of their file-system calls that matters: the reader only ever
// sees null (when there was no checkpoint), the old state or a writer's state; no writer fails;
// the checkpoint ends as one of the states written.
import { exploreOrders } from "../../concurrency/explore.js";
import type { Setup } from "../../concurrency/world.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { stateOfSize } from "../../grading/states.js";
import { lanesPicture } from "./lanes-picture.js";
import { runFinding, withWorld } from "./world-of.js";

/** Writers of different lengths, over an old checkpoint and over none (one write large enough to take several calls). */
const SETUPS: Setup[] = [
  { old: { state: { step: 1 } }, states: [{ step: 2, by: "A" }, { step: 2, by: "B", notes: ["a longer state than A's"] }] },
  { old: null, states: [stateOfSize(80 * 1024, 7), [1, 2, 3]] },
];

/**
 * Enough for every order that matters of writes of a few calls each (a fixed temp name needs
 * 70 to 250 runs); writers that wait for each other's locks have many more, and the check then
 * covers the first ones, in a number of runs fixed in advance, so the verdict never depends on time.
 */
const BUDGET = { runs: 250, steps: 2500 };

export const twoWriters: CheckDefinition = {
  id: "concurrency.two-writers",
  run: (ctx) =>
    withWorld(ctx, 2, async (world) => {
      let runs = 0;
      let complete = true;
      for (const setup of SETUPS) {
        const explored = await exploreOrders((choose) => world.run(setup, choose), BUDGET);
        runs += explored.runs;
        ctx.countCrashStates(explored.loads);
        if (explored.failed) {
          const run = { setup, exec: explored.failed, pids: world.pids, clockMs: world.clockMs };
          ctx.draw(() => lanesPicture(run));
          return ctx.failed(runFinding(setup, explored.failed, { kind: "explored", order: explored.runs }, world));
        }
        complete &&= explored.complete;
      }
      return ctx.passed(`${runs} orders run${complete ? ", every one that matters" : ", as many as the check's budget allows"}`);
    }),
};
