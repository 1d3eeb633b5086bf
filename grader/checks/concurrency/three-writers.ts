// concurrency.three-writers: three processes save the same checkpoint at once, in orders fast-check
// chooses (and shrinks), with small states of every kind (two-writers has a large one); judged as
// with two writers.
import fc from "fast-check";
import { stickyChoice, type Chooser } from "../../concurrency/explore.js";
import type { Setup } from "../../concurrency/world.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { smallJsonState } from "../../grading/states.js";
import { lanesPicture, type LanesInput } from "./lanes-picture.js";
import { runFinding, withWorld } from "./world-of.js";

const WRITERS = 3;

export const threeWriters: CheckDefinition = {
  id: "concurrency.three-writers",
  run: (ctx) =>
    withWorld(ctx, WRITERS, async (world) => {
      const arb = fc.record({
        old: fc.option(smallJsonState().map((state) => ({ state })), { nil: null }),
        states: fc.tuple(smallJsonState(), smallJsonState(), smallJsonState()),
        order: fc.array(fc.nat({ max: WRITERS - 1 }), { maxLength: 48 }),
      });
      const found = await findCounterexample(
        ctx,
        arb,
        async ({ old, states, order }) => {
          const setup: Setup = { old, states };
          const exec = await world.run(setup, follow(order));
          ctx.countCrashStates(exec.loads);
          if (!exec.problem) return null;
          const run: LanesInput = { setup, exec, pids: world.pids, clockMs: world.clockMs };
          ctx.draw(() => lanesPicture(run));
          return runFinding(setup, exec, { kind: "random" }, world);
        },
        { numRuns: 15 },
      );
      return found ? ctx.failed(found.story, found.path) : ctx.passed();
    }),
};

/** Lets the writer the order names through (the next one waiting when it is done), then lets the last one go on. */
function follow(order: number[]): Chooser {
  return (depth, waiting, steps) => {
    if (depth >= order.length) return stickyChoice(depth, waiting, steps);
    const wanted = order[depth]!;
    return waiting.includes(wanted) ? wanted : waiting[wanted % waiting.length]!;
  };
}
