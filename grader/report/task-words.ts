// How a task's runs read in a failure story: its record of side effects (RecordWrong,
// contract/finding.ts) and what runTask returned (TaskResultWrong). For each, the sentence under a
// failed check, the shorter words a runs picture marks the place with, and the outcome, the same
// for every submission with that bug, that the report compares.
import type { RanWhenDone, RecordWent, RecordWrong, TaskResultWrong, TaskState } from "../contract/finding.js";
import { callLead, callOutcome, callWords } from "./call-words.js";

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

/** The story of runTask calling runStep once the task was done: each later run, its maxSteps, the steps it called. */
export function ranWhenDoneWords({ runs }: RanWhenDone): string {
  const each = runs.map(({ run, maxSteps, steps }) => `run ${run} (${maxSteps === undefined ? "no maxSteps" : `maxSteps ${maxSteps}`}) called ${steps.map((s) => `runStep(${s})`).join(", ")}`);
  return `After the task was done, runTask ran again on the finished checkpoint, in a new process each time: ${each.join("; ")}. Each must call no runStep.`;
}

/** What runStep called on a finished checkpoint comes down to, whichever runs called which steps. */
export const RAN_WHEN_DONE_OUTCOME = "runTask called runStep on a finished checkpoint";
