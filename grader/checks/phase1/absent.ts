// phase1.absent: loading where no checkpoint was ever written returns null.
import { load, loadWrong, write } from "../../grading/calls.js";
import type { CheckDefinition } from "../../grading/harness.js";

const CASES = [
  { where: "an empty folder", steps: [load()] },
  { where: "a folder holding only other files", steps: [{ put: "work/notes.txt", content: "hello" }, load()] },
  { where: "a subfolder with no checkpoint", steps: [{ put: "work/run-2/notes.txt", content: "" }, load({ $path: "work/run-2/state.json" })] },
  {
    where: "a folder where this process had just saved a checkpoint under another name (run-1.json)",
    steps: [write({ step: 7 }, { $path: "work/run-1.json" }), load({ $path: "work/run-2.json" })],
  },
];

export const absent: CheckDefinition = {
  id: "phase1.absent",
  async run(ctx) {
    const box = ctx.sandbox();
    for (const c of CASES) {
      const { results } = await box.run("checkpoint", { steps: c.steps });
      const wrong = loadWrong(results.at(-1)!, [{ label: "", state: null }]);
      if (wrong) return ctx.failed({ setting: { kind: "nothing-written", where: c.where }, wrong });
    }
    return ctx.passed();
  },
};
