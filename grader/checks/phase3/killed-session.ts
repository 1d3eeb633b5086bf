// phase3.killed-session: a session killed with SIGKILL at a point fast-check chooses (its n-th
// change to the disk, or the middle of a write), then started again, still completes the task
// with the Phase 2 guarantees.
import { judgedPlace } from "../../grading/told.js";
import fc from "fast-check";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { fraction } from "../../grading/states.js";
import { normaliseName } from "../../crash/describe.js";
import { gradedTask, judgeRecord } from "../phase2/ledger.js";
import { SessionFolder, checkSession, statusLine } from "./sessions.js";
import { runsPicture } from "../phase2/runs-picture.js";

export const killedSession: CheckDefinition = {
  id: "phase3.killed-session",
  async run(ctx) {
    const task = gradedTask(ctx.config.rubric.task);
    // How many changes to the disk a whole session makes, so the kills can land on any of them.
    const probe = new SessionFolder(ctx);
    const whole = await probe.run();
    const problem = checkSession(task, whole, task.steps);
    if (problem) return ctx.failed(`A session with no --max-steps, run to the end without a crash: ${problem}.`);
    if (!whole.changes) return ctx.failed("A session with no --max-steps, run to the end, made no change to the disk at all: it never wrote a checkpoint.", undefined, { outcome: "a session wrote no checkpoint" });
    const changes = whole.changes;
    const found = await findCounterexample(
      ctx,
      fc.record({ at: fc.integer({ min: 1, max: changes }), fraction: fraction() }),
      async ({ at, fraction }) => {
        const folder = new SessionFolder(ctx);
        const killed = await folder.run(undefined, { nthChange: at, fraction });
        ctx.countCrashStates(1);
        const where = killed.torn
          ? `in ${killed.torn.api}${killed.torn.file ? `(${JSON.stringify(normaliseName(killed.torn.file, { pids: [killed.pid] }))})` : ""}${killed.torn.of ? `, ${killed.torn.written} of ${killed.torn.of} bytes written` : ""}`
          : "";
        const story = `A session was killed with SIGKILL at its change to the disk number ${at} of ${changes}${where ? ` (${where})` : ""}`;
        if (killed.signal !== "SIGKILL") return `${story}, but it was not killed there: it made fewer changes this time.`;
        const last = folder.record().at(-1);
        const resumed = await folder.run();
        const again = checkSession(task, resumed, task.steps);
        if (again) return `${story}. Started again: ${again}.`;
        // A kill after step s's side effect and before its checkpoint may run step s again, once.
        const extra: number[] = [];
        if (last) extra[last.step] = 1;
        const verdict = judgeRecord(task, folder.record(), extra, "session");
        if (verdict) {
          const record = folder.record();
          const killed = { step: last?.step ?? 0, at: "after" as const, words: `with SIGKILL at its change to the disk number ${at} of ${changes}, after step ${last?.step ?? 0}'s side effect` };
          const line = statusLine(resumed);
          const place = judgedPlace();
          ctx.draw(() => runsPicture(task, "session", [{ killed }, line ? { printed: { line } } : {}], record, verdict, place));
        }
        return verdict && `${story}, after step ${last?.step ?? 0}'s side effect. Started again: ${verdict}.`;
      },
      { numRuns: 5 },
    );
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};
