// phase3.three-sessions: the handout's split. Sessions of 4, 4 and 2 steps, three separate
// processes, complete the task: each exits 0, prints its status line, and runs its own steps.
import type { CheckDefinition } from "../../grading/harness.js";
import { runSplit } from "./splits.js";

export const threeSessions: CheckDefinition = {
  id: "phase3.three-sessions",
  async run(ctx) {
    const problem = await runSplit(ctx, [4, 4, 2]);
    return problem ? ctx.failed(problem) : ctx.passed();
  },
};
