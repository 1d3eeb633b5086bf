// phase1.round-trip: what was written loads back deep-equal, right away and after a restart,
// and a sequence of writes loads the last one.
import fc from "fast-check";
import { load, loadWrong, restart, returnedUnfinished, write, writeWrong } from "../../grading/calls.js";
import type { Finding } from "../../contract/finding.js";
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
      async (states): Promise<Finding | null> => {
        const [a, b, c] = states;
        const steps = [write(a), load(), write(b), load(), write(c), load(), restart, load()];
        const { results } = await box.run("checkpoint", { steps });
        const wrong =
          writeWrong(results[0]!, a) ??
          loadWrong(results[1]!, [{ label: "the state just written", state: a }]) ??
          writeWrong(results[2]!, b) ??
          loadWrong(results[3]!, [{ label: "the second state written", state: b }]) ??
          writeWrong(results[4]!, c) ??
          loadWrong(results[5]!, [{ label: "the last state written", state: c }]);
        // The states are shown only in a failure's story (one may be a few MiB of JSON).
        const setting = () => ({ kind: "writes-in-turn", shown: states.map((s) => showState(s, 60)) }) as const;
        const unfinished = returnedUnfinished(steps, results);
        if (wrong) return { setting: setting(), wrong, ...(unfinished ? { notes: [unfinished] } : {}) };
        const afterRestart = loadWrong(results[6]!, [{ label: "the last state written", state: c }]);
        return afterRestart && { setting: setting(), when: { kind: "after-restart" }, wrong: afterRestart };
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
