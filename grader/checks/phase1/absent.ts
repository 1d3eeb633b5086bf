// phase1.absent: loading where no checkpoint was ever written returns null.
import type { CheckDefinition } from "../../grading/harness.js";
import { checkLoad, load } from "./calls.js";

const CASES = [
  { where: "an empty folder", steps: [load()] },
  { where: "a folder holding only other files", steps: [{ put: "work/notes.txt", content: "hello" }, load()] },
  { where: "a subfolder with no checkpoint", steps: [{ put: "work/run-2/notes.txt", content: "" }, load({ $path: "work/run-2/state.json" })] },
];

export const absent: CheckDefinition = {
  id: "phase1.absent",
  async run(ctx) {
    const box = ctx.sandbox();
    for (const c of CASES) {
      const { results } = await box.run("checkpoint", { steps: c.steps });
      const problem = checkLoad(results[0]!, [{ label: "", state: null }]);
      if (problem) return ctx.failed(`Called loadCheckpoint on a path in ${c.where}, where nothing was ever written.\n${problem}`);
    }
    return ctx.passed();
  },
};
