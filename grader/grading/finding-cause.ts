// What a finding comes down to, as the report compares it (contract/verdict.ts's Cause): the
// errors of the target's it tells, in the order told (what went wrong first, then those its
// setting tells), and its outcome, made from the Finding's data, as told.ts records them for a
// story still told as text.
import type { Finding, RunWent, Setting, Wrong } from "../contract/finding.js";
import type { CallResult } from "../sandbox/messages/scenario.js";
import { runOf, storyWords } from "../report/run-story.js";
import { eachErrorOnce, type Cause, type TargetError } from "../contract/verdict.js";
import { callOutcome } from "../report/call-words.js";
import { RAN_WHEN_DONE_OUTCOME, budgetStepsOutcome, recordOutcome, taskResultOutcome } from "../report/task-words.js";
import { callErrors } from "./calls.js";

export function causeOf({ setting, wrong }: Finding): Pick<Cause, "errors" | "outcome"> {
  const errors = eachErrorOnce([...wrongErrors(wrong, setting), ...settingErrors(setting)]);
  return { ...(errors.length > 0 ? { errors } : {}), outcome: outcomeOf(wrong) };
}

/** The errors the wrong tells: what its call threw; in a run of concurrent writers, in the run's words (a temp name's pid as whose it is), as its story tells them. */
function wrongErrors(wrong: Wrong, setting: Setting | undefined): TargetError[] {
  if (wrong.kind === "call") return callErrors(wrong.call.result);
  if (wrong.kind === "task-result") return wrong.got.kind === "call" ? callErrors(wrong.got.call.result) : [];
  if (wrong.kind !== "run" || setting?.kind !== "concurrent-writers") return [];
  const result = runResult(wrong.went);
  return result ? callErrors(result).map((e) => ({ ...e, message: storyWords(e.message, runOf(setting)) })) : [];
}

/** The call a run's failure tells of: the save that did not return, or the load that returned what it must not. */
function runResult(went: RunWent): CallResult | undefined {
  if (went.kind === "reader-saw") return went.wrong.call.result;
  return (went.kind === "old-save-failed" || went.kind === "writer-failed") && went.ended.kind === "call" ? went.ended.result : undefined;
}

function outcomeOf(wrong: Wrong): string {
  switch (wrong.kind) {
    case "call":
      return callOutcome(wrong.call.fn, wrong.call.result);
    case "sandbox":
    case "process":
      return wrong.outcome;
    case "no-write-to-kill":
      return "atomicCheckpoint wrote no bytes to be killed in";
    case "too-many-calls":
      return "a process made more file-system calls than the grader records";
    case "run":
      return runOutcome(wrong.went);
    case "record":
      return recordOutcome(wrong.went);
    case "task-result":
      return taskResultOutcome(wrong);
    case "ran-when-done":
      return RAN_WHEN_DONE_OUTCOME;
    case "never-entered":
      return "runTask never entered the step it was to be killed in";
    case "steps-by-process":
      return "the two processes ran other steps than the kill allows";
    case "budget-steps":
      return budgetStepsOutcome(wrong);
  }
}

/** What a run's failure comes down to: the call's outcome, or the same words for every submission whose process did not finish. */
function runOutcome(went: RunWent): string {
  switch (went.kind) {
    case "old-save-failed":
      return went.ended.kind === "call" ? callOutcome("atomicCheckpoint", went.ended.result) : "the save of the old state did not finish";
    case "writer-failed":
      return went.ended.kind === "call" ? callOutcome("atomicCheckpoint", went.ended.result) : "a writer did not finish its save";
    case "endless":
      return "the writers never all returned";
    case "reader-gone":
    case "reader-unfinished":
      return "the reader did not finish its load";
    case "reader-saw":
      return callOutcome("loadCheckpoint", went.wrong.call.result);
  }
}

/** The errors a setting's words tell: in a chain, what a process's load threw before the save it was cut in; on a disk that said no, what the call threw. */
function settingErrors(setting: Setting | undefined): TargetError[] {
  if (setting?.kind === "disk-said-no") return callErrors(setting.result);
  if (setting?.kind !== "crash-chain") return [];
  return setting.links.flatMap((l) => (l.loaded && l.cut.at >= l.writeStart ? callErrors(l.loaded) : []));
}
