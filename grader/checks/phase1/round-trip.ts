// phase1.round-trip: what was written loads back deep-equal, right away and after a restart,
// and a sequence of writes loads the last one.
import fc from "fast-check";
import { checkLoad, checkWrite, load, restart, unfinishedNote, write } from "../../grading/calls.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState, LARGE_STATE_BYTES, largeState, showState } from "../../grading/states.js";

export const roundTrip: CheckDefinition = {
  id: "phase1.round-trip",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(
      ctx,
      fc.tuple(jsonState(), jsonState(), jsonState()),
      async (states) => {
        const [a, b, c] = states;
        const steps = [write(a), load(), write(b), load(), write(c), load(), restart, load()];
        const { results } = await box.run("checkpoint", { steps });
        const problem =
          checkWrite(results[0]!, a) ??
          checkLoad(results[1]!, [{ label: "the state just written", state: a }]) ??
          checkWrite(results[2]!, b) ??
          checkLoad(results[3]!, [{ label: "the second state written", state: b }]) ??
          checkWrite(results[4]!, c) ??
          checkLoad(results[5]!, [{ label: "the last state written", state: c }]);
        if (problem) return `${sequence(states)}\n${problem}${unfinishedNote(steps, results)}`;
        const afterRestart = checkLoad(results[6]!, [{ label: "the last state written", state: c }]);
        return afterRestart && `${sequence(states)}\nAfter a restart (a fresh process), ${afterRestart}`;
      },
      {
        numRuns: 30,
        examples: [
          [null, {}, []],
          ["", 0, { a: [null, { b: "é😀" }] }],
          ["null", "42", "[1]"],
          fc.sample(largeState(), { seed: ctx.seed, numRuns: 3 }) as [unknown, unknown, unknown],
          [{ big: "x".repeat(LARGE_STATE_BYTES) }, 1, { big: "y".repeat(100 * 1024) }],
        ],
      },
    );
    if (!found) return ctx.passed();
    return ctx.failed(found.story, found.path);
  },
};

function sequence([a, b, c]: unknown[]): string {
  return `Wrote ${showState(a, 60)}, then ${showState(b, 60)}, then ${showState(c, 60)}, loading after each write.`;
}
