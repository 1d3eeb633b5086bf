// The crash points of a git-backed run. Git is native code, so a crash inside it is placed where
// a killed git leaves its mark: after it took .git/index.lock and wrote its new objects, before
// any ref moved. Everywhere else a crash lands as in Phase 2: after each change the runner's own
// code makes (and in the middle of each write), before and after each git command, and at every
// step boundary.
import { byTime } from "../../crash/cuts.js";
import { commandSpans, isCommandOp } from "../../crash/commands.js";
import type { Cut } from "../../crash/model.js";
import { changesDisk } from "../../crash/trace.js";
import type { CheckContext } from "../../grading/context.js";
import type { Verdict } from "../../contract/verdict.js";
import { boundaryCuts, recordRun, recoverFromEach, type RecordedRun } from "../phase2/crash-recovery.js";
import { gradedTask } from "../phase2/ledger.js";
import { GIT_SETUP } from "./git-setup.js";

/** Records a crash-free run of the git-backed runTask, then recovers from each crash point `cutsOf` picks in it. */
export async function recoverFromGitCuts(ctx: CheckContext, cutsOf: (run: RecordedRun) => Cut[]): Promise<Verdict> {
  const box = ctx.sandbox();
  const run = await recordRun(box, [], undefined, GIT_SETUP);
  const task = gradedTask(ctx.config.rubric.task);
  if ("failed" in run) return ctx.failedWithoutCrash({ when: { kind: "task-run", run: "crash-free-git", steps: task.steps }, wrong: run.failed });
  const cuts = cutsOf(run);
  if (cuts.length === 0) return ctx.failed("A run of runTask (git-checkpoint.ts) with no crash made no git command that writes objects or the index: every step must be committed.", undefined, { outcome: "runTask made no git commit" });
  const failure = await recoverFromEach(task, box, run, cuts, { setup: GIT_SETUP, draw: (picture) => ctx.draw(picture) });
  return failure ? ctx.failed(failure) : ctx.passed();
}

/** The crash points around git (the state write, before and after each command, the boundaries), in time order. */
export function aroundGitCuts(run: RecordedRun): Cut[] {
  const { entries } = run.trace;
  const cuts: Cut[] = [{ at: run.start }, ...boundaryCuts(run.trace)];
  for (let i = run.start; i < entries.length; i++) {
    const e = entries[i]!;
    // An open alone leaves at most an empty file, which the torn write already stands for.
    if (isCommandOp(e) || !changesDisk(e) || e.kind === "open") continue;
    // A torn write: half of it (git, not the write, makes the checkpoint whole; Phase 2 tears every byte).
    if (e.kind === "write" && e.bytes.byteLength > 1) cuts.push({ at: i, bytes: e.bytes.byteLength >> 1 });
    cuts.push({ at: i + 1 });
  }
  for (const span of commandSpans(run.trace, run.start)) cuts.push({ at: span.start }, { at: span.end });
  return distinct(cuts);
}

/** The crash points inside git commands that take the index lock: the lock and the new objects are there, no ref moved. */
export function insideGitCuts(run: RecordedRun): Cut[] {
  return distinct(commandSpans(run.trace, run.start).flatMap((s) => (s.killedInside === undefined ? [] : [{ at: s.killedInside }])));
}

function distinct(cuts: Cut[]): Cut[] {
  const seen = new Set<string>();
  return cuts.filter((c) => !seen.has(`${c.at}:${c.bytes}`) && seen.add(`${c.at}:${c.bytes}`)).sort(byTime);
}
