// phase3.three-sessions: the handout's split. Sessions of 4, 4 and 2 steps (the manifest's
// task.sessions), three separate processes, complete the task: each exits 0, prints its status
// line, and runs its own steps.
import type { CheckDefinition } from "../../grading/harness.js";
import { runSplit } from "./splits.js";

export const threeSessions: CheckDefinition = {
  id: "phase3.three-sessions",
  async run(ctx) {
    const problem = await runSplit(ctx, ctx.config.rubric.task.sessions);
    return problem ? ctx.failed(problem) : ctx.passed();
  },
};
