// How a task's record of side effects reads in a failure story (RecordWrong, contract/finding.ts):
// the sentence under a failed check, the shorter words a runs picture marks the place with, and
// the outcome, the same for every submission with that bug, that the report compares.
import type { RecordWent, RecordWrong, TaskState } from "../contract/finding.js";

/** The story's sentence: "step 4 never ran (the record holds steps 1, 2, 3, 5)", "step 3 ran 2 times (in runs 1, 2): no crash landed ...". */
export function recordWrongWords(wrong: RecordWrong): string {
  const { went } = wrong;
  switch (went.kind) {
    case "step-outside":
    case "wrong-state":
      return recordSays(wrong);
    case "never-ran":
      return `${recordSays(wrong)} (the record holds ${heldWords(went.held)})`;
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
export function heldWords(steps: number[]): string {
  if (steps.length === 0) return "no step";
  if (steps.length === 1) return `only step ${steps[0]}`;
  return `steps ${steps.join(", ")}`;
}
