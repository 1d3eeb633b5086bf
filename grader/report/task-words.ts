// How a task's runs read in a failure story: its record of side effects (RecordWrong,
// contract/finding.ts) and what runTask returned (TaskResultWrong). For each, the sentence under a
// failed check, the shorter words a runs picture marks the place with, and the outcome, the same
// for every submission with that bug, that the report compares.
import type { AfterCrashes, BudgetSteps, RanWhenDone, StepsByProcess, RecordWent, RecordWrong, TaskCrashes, TaskResultWrong, TaskState } from "../contract/finding.js";
import type { PictureRun, PictureWrong } from "../contract/picture-runs.js";
import { cutPlace } from "../crash/describe.js";
import { placeCrash, type CrashPlace } from "../crash/task-crash.js";
import { callLead, callOutcome, callWords } from "./call-words.js";

/** Each crashed run a line: "Run 1 was killed at the boundary after step 6 (right after renameSync(...))."; "Run 1 with maxSteps 4 ran 4 steps and returned paused.". */
export function taskCrashesWords({ crashes }: TaskCrashes): string {
  return crashes
    .map((c, i) => {
      const budget = c.budget === undefined ? "" : ` with maxSteps ${c.budget}`;
      if (c.paused) return `Run ${i + 1}${budget} ran ${c.budget} steps and returned paused.`;
      const where = crashPlaceWords(placeCrash(c.run.trace, c.cut.at, c.run));
      const how = cutPlace(c.run.trace, c.cut, c.run.start);
      const started = i === 0 ? "" : crashes[i - 1]!.paused ? ` (started on what run ${i} left)` : " (restarted on what the crash left)";
      return `Run ${i + 1}${budget}${started} was killed ${where} (${how}).`;
    })
    .join("\n");
}

/** How the story begins the run after the crashes: "Run 3, a new process, then ran runTask to the end"; "Run 3 failed" (the run to be crashed next). */
export function afterCrashesWords({ run, newProcess, toCrash }: AfterCrashes): string {
  if (toCrash) return `Run ${run} failed`;
  return `Run ${run}${newProcess ? ", a new process," : ""} then ran runTask to the end`;
}

/** Where a crash fell, as a story says it: "at the boundary after step 6", "inside runStep(3), before its side effect". */
export function crashPlaceWords(place: CrashPlace): string {
  switch (place.kind) {
    case "before-any-step":
      return "before it ran any step";
    case "before-step":
      return place.step === 1 ? "before step 1 started" : `during its recovery, before its first step, step ${place.step}`;
    case "in-step":
      return `inside runStep(${place.step}), before its side effect`;
    case "at-boundary":
      return `at the boundary after step ${place.step}`;
    case "after-commit":
      return `after step ${place.step}'s side effect and its commit`;
    case "in-window":
      return `after step ${place.step}'s side effect, before the boundary after it`;
  }
}

/** Where a runs picture marks a run killed at `place`, with the story's words for it. */
export function killedMark(place: CrashPlace): NonNullable<PictureRun["killed"]> {
  const words = crashPlaceWords(place);
  switch (place.kind) {
    case "before-any-step":
      return { step: 0, at: "after", words };
    case "before-step":
      return { step: place.step, at: "before", words };
    case "in-step":
      return { step: place.step, at: "in-step", words };
    case "at-boundary":
    case "after-commit":
      return { step: place.step, at: "after", words };
    case "in-window":
      return { step: place.step, at: "in-window", words };
  }
}

/** What a runs picture marks wrong (its PictureWrong), and whether the step it names ran, in the run it names, on a wrong state. */
export type WrongMark = PictureWrong & { wrongState?: true };

/** Where a judgement of a task's runs falls: the step and run it names, in its short words. */
export function taskWrongMark(wrong: RecordWrong | TaskResultWrong | StepsByProcess | BudgetSteps): WrongMark {
  if (wrong.kind === "task-result") return { says: taskResultSays(wrong) };
  if (wrong.kind === "steps-by-process") return { says: stepsByProcessWords(wrong) };
  if (wrong.kind === "budget-steps") return { run: wrong.run, says: budgetStepsWords(wrong) };
  const { went } = wrong;
  const says = recordSays(wrong);
  switch (went.kind) {
    case "step-outside":
      return { says };
    case "never-ran":
      return { step: went.step, says };
    case "wrong-state":
      return { step: went.step, run: went.run, says, wrongState: true };
    case "ran-again":
      return { step: went.step, says, ranAgain: true };
  }
}

/** The story's sentence: "step 4 never ran (the record holds steps 1, 2, 3, 5)", "step 3 ran 2 times (in runs 1, 2): no crash landed ...". */
export function recordWrongWords(wrong: RecordWrong): string {
  const { went } = wrong;
  switch (went.kind) {
    case "step-outside":
    case "wrong-state":
      return recordSays(wrong);
    case "never-ran":
      return `${recordSays(wrong)} (the record holds ${heldStepsWords(went.held)})`;
    case "ran-again": {
      const why = went.crashes === 0
        ? "no crash landed between its side effect and its checkpoint, so it must run exactly once"
        : `only ${went.crashes} crash${went.crashes > 1 ? "es" : ""} landed between its side effect and its checkpoint`;
      return `${recordSays(wrong)}: ${why}`;
    }
  }
}

/** What went wrong at the place a runs picture marks: the story's sentence without its reasons. */
export function recordSays({ unit, went }: RecordWrong): string {
  switch (went.kind) {
    case "step-outside":
      return `runStep was called with step ${went.step}; the task's steps are 1 to ${went.steps}`;
    case "never-ran":
      return `step ${went.step} never ran`;
    case "wrong-state":
      return `step ${went.step} ran (in ${unit} ${went.run}) with ${stateWords(went.state)}; it must start from the state after step ${went.step - 1}${went.step === 1 ? " (the initial state)" : ""}`;
    case "ran-again":
      return `step ${went.step} ran ${went.runs.length} times (in ${unit}s ${went.runs.join(", ")})`;
  }
}

/** What the record's judgement comes down to, whichever step and process it names. */
export function recordOutcome(went: RecordWent): string {
  switch (went.kind) {
    case "step-outside":
      return "runStep was called with a step outside the task";
    case "never-ran":
      return "a step never ran";
    case "wrong-state":
      return `a step ran with ${stateKindWords(went.state)}`;
    case "ran-again":
      return went.crashes === 0 ? "a step ran again with no crash between its side effect and its checkpoint" : "a step ran more times than crashes landed between its side effect and its checkpoint";
  }
}

/** A state by name: "the initial state", "the state after step 5", "a state the task never produced". */
export function stateWords(state: TaskState): string {
  return state.kind === "initial" ? "the initial state" : state.kind === "after-step" ? `the state after step ${state.step}` : "a state the task never produced";
}

/** What kind of state it is, the same whichever step produced it: "the initial state", "another step's state", "a state the task never produced". */
export function stateKindWords(state: TaskState): string {
  return state.kind === "after-step" ? "another step's state" : stateWords(state);
}

/** "steps 1, 2, 3, 3, 4", "only step 1" or "no step", in the order the record holds them. */
export function heldStepsWords(steps: number[]): string {
  if (steps.length === 0) return "no step";
  if (steps.length === 1) return `only step ${steps[0]}`;
  return `steps ${steps.join(", ")}`;
}

/** The status runTask must return once it has run `stepsDone` of the task's `steps` steps. */
export function dueStatus({ stepsDone, steps }: { stepsDone: number; steps: number }): "done" | "paused" {
  return stepsDone >= steps ? "done" : "paused";
}

/** The run runTask must return, as a story shows it: '{ status: "paused", nextStep: 5 }'. */
function expectedRun(wrong: TaskResultWrong): string {
  return `{ status: "${dueStatus(wrong)}", nextStep: ${wrong.stepsDone + 1} }`;
}

/** The story's sentence: "runTask threw Error: ...; expected it to return { ... }", "runTask returned status "done" with the state after step 9; expected ...". */
export function taskResultWords(wrong: TaskResultWrong): string {
  const { got } = wrong;
  if (got.kind !== "call") return taskResultSays(wrong);
  if (got.held) return `${callWords(got.call)} (the record holds ${heldStepsWords(got.held)})`;
  return `${callWords(got.call)}; expected ${got.call.result.status === "returned" ? "" : "it to return "}${expectedRun(wrong)}`;
}

/** What a runs picture marks: the sentence, or for a call, its lead ("runTask threw Error (EEXIST)"). */
export function taskResultSays(wrong: TaskResultWrong): string {
  const { got, stepsDone, steps } = wrong;
  switch (got.kind) {
    case "call":
      return callLead(got.call);
    case "run":
      return `runTask returned { status: ${JSON.stringify(got.status)}, nextStep: ${JSON.stringify(got.nextStep)} }; expected ${expectedRun(wrong)} after ${stepsDone} of ${steps} steps`;
    case "state":
      return `runTask returned status "${dueStatus(wrong)}" with ${got.state ? stateWords(got.state) : "no state"}; expected the state after step ${stepsDone}${dueStatus(wrong) === "done" ? " (the final state)" : ""}`;
  }
}

/** What runTask's wrong return comes down to, whichever step it was at. */
export function taskResultOutcome(wrong: TaskResultWrong): string {
  const { got } = wrong;
  switch (got.kind) {
    case "call":
      return callOutcome(got.call.fn, got.call.result);
    case "run":
      return `runTask returned the wrong ${got.status !== dueStatus(wrong) ? "status" : "nextStep"}`;
    case "state":
      return `runTask returned ${got.state ? stateKindWords(got.state) : "no state"} instead of the state after its last step`;
  }
}

/** "the record shows steps [1, 2, 3, 4, 5] in process 1 and [5, 6, 7, 8, 9, 10] in process 2; expected [1, 2, 3, 4, 5] and [6, 7, 8, 9, 10]". */
export function stepsByProcessWords({ ran, expected }: StepsByProcess): string {
  const list = (steps: number[]) => `[${steps.join(", ")}]`;
  return `the record shows steps ${list(ran[0])} in process 1 and ${list(ran[1])} in process 2; expected ${list(expected[0])} and ${list(expected[1])}`;
}

/** "run 2 (maxSteps 3) ran steps [4, 5]; expected [4, 5, 6]". */
export function budgetStepsWords({ run, maxSteps, ran, expected }: BudgetSteps): string {
  return `run ${run}${maxSteps === undefined ? "" : ` (maxSteps ${maxSteps})`} ran steps [${ran.join(", ")}]; expected [${expected.join(", ")}]`;
}

/** What a run that ran other steps than it had left comes down to, whichever steps. */
export function budgetStepsOutcome({ maxSteps }: BudgetSteps): string {
  return `a run ${maxSteps === undefined ? "with no maxSteps" : "with maxSteps"} ran other steps than the next ones it had left`;
}

/** The story of runTask calling runStep once the task was done: each later run, its maxSteps, the steps it called. */
export function ranWhenDoneWords({ runs }: RanWhenDone): string {
  const each = runs.map(({ run, maxSteps, steps }) => `run ${run} (${maxSteps === undefined ? "no maxSteps" : `maxSteps ${maxSteps}`}) called ${steps.map((s) => `runStep(${s})`).join(", ")}`);
  return `After the task was done, runTask ran again on the finished checkpoint, in a new process each time: ${each.join("; ")}. Each must call no runStep.`;
}

/** What runStep called on a finished checkpoint comes down to, whichever runs called which steps. */
export const RAN_WHEN_DONE_OUTCOME = "runTask called runStep on a finished checkpoint";
