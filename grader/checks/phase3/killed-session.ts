// phase3.killed-session: a session killed with SIGKILL at a point fast-check chooses (its n-th
// change to the disk, or the middle of a write), then started again, still completes the task
// with the Phase 2 guarantees. Then the same for a session that resumes a task an earlier session
// paused with --max-steps: killed at each of its first changes to the disk, where a runner's way of
// taking up a paused task writes before its first step (a check of pausing itself is
// three-sessions' and random-splits': here a runner that does not pause cleanly is not judged again).
import { judgedPlace } from "../../grading/told.js";
import fc from "fast-check";
import type { CheckContext } from "../../grading/context.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { fraction } from "../../grading/states.js";
import { normaliseName } from "../../crash/describe.js";
import { gradedTask, judgeRecord, type GradedTask } from "../phase2/ledger.js";
import { SessionFolder, checkSession, statusLine } from "./sessions.js";
import { runsPicture, type RunTold } from "../phase2/runs-picture.js";

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
      ({ at, fraction }) => killAndRestart(ctx, task, { at, of: changes, fraction }),
      { numRuns: 5 },
    );
    if (found) return ctx.failed(found.story, found.path);
    // A session that takes up a paused task, killed at each of its first two steps' worth of
    // changes to the disk (or all it makes), in order.
    const pausedAfter = Math.floor(task.steps / 2);
    const resumed = await resumedChanges(ctx, task, pausedAfter);
    if (resumed === null) return ctx.passed();
    const first = Math.min(resumed, Math.ceil((2 * resumed) / (task.steps - pausedAfter)));
    const kills = Array.from({ length: first }, (_, i) => i + 1);
    const foundResumed = await findCounterexample(ctx, fc.constantFrom(...kills), (at) => killAndRestart(ctx, task, { pausedAfter, at, of: resumed, fraction: 0.5 }), { numRuns: kills.length, examples: kills, part: "paused" });
    return foundResumed ? ctx.failed(foundResumed.story, foundResumed.path) : ctx.passed();
  },
};

/**
 * How many changes to the disk a session makes that takes up a task a first session paused after
 * `pausedAfter` steps, run to the end; null when those two sessions did not do what they should
 * (their check is another one's) or it made no change.
 */
async function resumedChanges(ctx: CheckContext, task: GradedTask, pausedAfter: number): Promise<number | null> {
  const folder = new SessionFolder(ctx);
  const paused = await folder.run(pausedAfter);
  if (checkSession(task, paused, pausedAfter)) return null;
  const rest = await folder.run();
  if (checkSession(task, rest, task.steps) || judgeRecord(task, folder.record(), [], "session")) return null;
  return rest.changes || null;
}

/**
 * Null when a session killed at its change to the disk number `at` (of `of`; in the middle of a
 * write, at `fraction` of it), then started again, completes the task with each step run as
 * Phase 2 allows; otherwise the story. With `pausedAfter`, a first session runs that many steps
 * and pauses before the session that is killed starts.
 */
async function killAndRestart(ctx: CheckContext, task: GradedTask, kill: { pausedAfter?: number; at: number; of: number; fraction: number }): Promise<string | null> {
  const { pausedAfter, at, of } = kill;
  const folder = new SessionFolder(ctx);
  const told: RunTold[] = [];
  let lead = "";
  if (pausedAfter !== undefined) {
    const first = await folder.run(pausedAfter);
    const line = statusLine(first);
    told.push({ budget: pausedAfter, ...(line ? { printed: { line } } : {}) });
    lead = `A first session ran with --max-steps ${pausedAfter} and paused. Then a`;
  }
  const killed = await folder.run(undefined, { nthChange: at, fraction: kill.fraction });
  const where = killed.torn
    ? `in ${killed.torn.api}${killed.torn.file ? `(${JSON.stringify(normaliseName(killed.torn.file, { pids: [killed.pid] }))})` : ""}${killed.torn.of ? `, ${killed.torn.written} of ${killed.torn.of} bytes written` : ""}`
    : "";
  const story = `${lead || "A"} session was killed with SIGKILL at its change to the disk number ${at} of ${of}${where ? ` (${where})` : ""}`;
  if (killed.signal !== "SIGKILL") {
    // A session that takes up a paused task was counted apart: one that made fewer changes this time was not killed, and is judged as it ran.
    if (pausedAfter === undefined) return `${story}, but it was not killed there: it made fewer changes this time.`;
    const problem = checkSession(task, killed, task.steps) ?? judgeRecord(task, folder.record(), [], "session");
    return problem && `${lead} session ran to the end: ${problem}.`;
  }
  ctx.countCrashStates(1);
  const last = folder.record().at(-1);
  const restarted = await folder.run();
  const again = checkSession(task, restarted, task.steps);
  if (again) return `${story}. Started again: ${again}.`;
  // A kill after step s's side effect and before its checkpoint may run step s again, once.
  const extra: number[] = [];
  if (last) extra[last.step] = 1;
  const verdict = judgeRecord(task, folder.record(), extra, "session");
  if (verdict) {
    const record = folder.record();
    const words = `with SIGKILL at its change to the disk number ${at} of ${of}, after step ${last?.step ?? 0}'s side effect`;
    const line = statusLine(restarted);
    const place = judgedPlace();
    told.push({ killed: { step: last?.step ?? 0, at: "after", words } }, line ? { printed: { line } } : {});
    ctx.draw(() => runsPicture(task, "session", told, record, { ...place, says: place?.says ?? verdict }));
  }
  return verdict && `${story}, after step ${last?.step ?? 0}'s side effect. Started again: ${verdict}.`;
}
