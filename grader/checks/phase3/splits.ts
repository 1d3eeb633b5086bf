// The core of the session checks: sessions with step budgets that add up to the task's steps, each a
// separate process, finish the task between them with each step run once, by the session it belongs to.
import { judgedPlace, toldOutcome, type JudgedPlace } from "../../grading/told.js";
import type { CheckContext } from "../../grading/context.js";
import { gradedTask, judgeRecord } from "../phase2/ledger.js";
import { SessionFolder, checkSession, statusLine } from "./sessions.js";
import { runsPicture, type RunTold } from "../phase2/runs-picture.js";

/** Null when sessions with these budgets complete the task as they should; otherwise the story. */
export async function runSplit(ctx: CheckContext, budgets: number[]): Promise<string | null> {
  const task = gradedTask(ctx.config.rubric.task);
  const folder = new SessionFolder(ctx);
  const story = `Ran ${budgets.length} sessions with --max-steps ${budgets.join(", ")}`;
  // Each session as the picture shows it: its budget and its status line, wrong when the story says so.
  const told: RunTold[] = [];
  // Drawn only when the steps the sessions ran are wrong: a session that printed the wrong line,
  // exited or hung is not a crash, and its story says all there is (a picture would only repeat
  // its command and line, cut to the terminal's width).
  const fail = (problem: string, { draw, place = judgedPlace() }: { draw: boolean; place?: JudgedPlace }) => {
    const record = folder.record();
    if (draw) ctx.draw(() => runsPicture(task, "session", told, record, { ...place, says: place?.says ?? problem }));
    return `${story}: ${problem}.`;
  };
  let done = 0;
  for (const [i, budget] of budgets.entries()) {
    const outcome = await folder.run(budget);
    done = Math.min(task.steps, done + budget);
    const problem = checkSession(task, outcome, done);
    const line = statusLine(outcome);
    told.push({ budget, ...(line ? { printed: { line, ...(problem ? { wrong: true } : {}) } } : {}) });
    if (problem) return fail(`session ${i + 1}: ${problem}`, { draw: false });
  }
  const record = folder.record();
  const problem = judgeRecord(task, record, [], "session");
  if (problem) return fail(problem, { draw: true });
  let start = 0;
  for (const [i, budget] of budgets.entries()) {
    const wanted = Array.from({ length: Math.min(budget, task.steps - start) }, (_, k) => start + k + 1);
    const ran = record.filter((d) => d.run === i + 1).map((d) => d.step);
    if (ran.join() !== wanted.join()) {
      const problem = `the record shows session ${i + 1} (its own process) ran steps [${ran.join(", ")}]; expected [${wanted.join(", ")}]`;
      toldOutcome("a session ran other steps than its own", { judged: true });
      return fail(problem, { draw: true, place: { run: i + 1, says: problem } });
    }
    start += wanted.length;
  }
  return null;
}
