// phase3.after-completion: a session started after the task is done runs no step, exits 0 and
// says so: {"status":"done","nextStep":11} (with 10 steps).
import type { CheckDefinition } from "../../grading/harness.js";
import { gradedTask, judgeRecord } from "../phase2/ledger.js";
import { SessionFolder, checkSession } from "./sessions.js";

export const afterCompletion: CheckDefinition = {
  id: "phase3.after-completion",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    const folder = new SessionFolder(ctx);
    // The first session must really do the task: a session that only says "done" finishes nothing.
    const first = checkSession(task, await folder.run(), task.steps) ?? judgeRecord(task, folder.record(), [], "session");
    if (first) return ctx.failed(`A first session, with no --max-steps, was to run the whole task: ${first}.`);
    const before = folder.entered();
    const again = await folder.run(3);
    const ran = folder.entered() - before;
    if (ran > 0) return ctx.failed(`After the task was done, another session (\`${again.command}\`) called runStep ${ran} time${ran > 1 ? "s" : ""}; it must run nothing.`, undefined, { outcome: "a session on a finished checkpoint called runStep" });
    const problem = checkSession(task, again, task.steps);
    return problem ? ctx.failed(`After the task was done, another session: ${problem}.`) : ctx.passed();
  },
};
