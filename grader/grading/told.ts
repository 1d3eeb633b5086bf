// What a failure story tells, kept as data while the story is written: the target's errors it
// tells and what went wrong, in words the same for every submission with that bug. The words for
// a call's outcome (calls.ts), a session's exit (checks/phase3/sessions.ts) and a task record's
// judgement (checks/phase2/ledger.ts) add what they tell to the record of the check's case being
// told, which the verdict carries as its cause (contract/verdict.ts). A story told outside a check
// (a tool, a test) is recorded nowhere.
import { AsyncLocalStorage } from "node:async_hooks";
import { sameError, type TargetError } from "../contract/verdict.js";

/** What the stories of a check's case told so far (CheckContext.told). */
export interface Told {
  errors: TargetError[];
  /** What went wrong, in the order told; `judged`: told with what was expected instead; `place`: where in a task's runs. */
  outcomes: { outcome: string; judged: boolean; place?: JudgedPlace }[];
}

/**
 * Where in a task's runs a judgement falls, as a runs picture marks it (contract/picture-runs.ts's
 * PictureWrong): the step, the run, the story's own words for what went wrong there when they are
 * not the outcome's, whether the step there ran on a wrong state, and whether it ran too often.
 */
export interface JudgedPlace {
  step?: number;
  run?: number;
  says?: string;
  wrongState?: true;
  ranAgain?: boolean;
}

const record = new AsyncLocalStorage<Told>();

/** A record with nothing told yet. */
export function nothingTold(): Told {
  return { errors: [], outcomes: [] };
}

/** Forgets what `told` holds (a new case begins). */
export function forget(told: Told): void {
  told.errors.length = 0;
  told.outcomes.length = 0;
}

/** Runs `run` with what its stories tell added to `told` (a check's own record: CheckContext.told). */
export function recordingTold<T>(told: Told, run: () => T): T {
  return record.run(told, run);
}

/** Adds an error a story tells to the record of the case being told, once. */
export function toldError(error: TargetError): void {
  const errors = record.getStore()?.errors;
  if (errors && !errors.some((e) => sameError(e, error))) errors.push(error);
}

/** Adds what went wrong, as a story tells it ("loadCheckpoint threw SyntaxError", "a step never ran"), and where, when it falls in a task's runs. */
export function toldOutcome(outcome: string, { judged = false, place }: { judged?: boolean; place?: JudgedPlace } = {}): void {
  record.getStore()?.outcomes.push({ outcome, judged, ...(place ? { place } : {}) });
}

/** What a failure comes down to: the last outcome told with what was expected instead, else the last told. */
function failureOutcome(told: Told): Told["outcomes"][number] | undefined {
  const judged = told.outcomes.filter((o) => o.judged);
  return judged.at(-1) ?? told.outcomes.at(-1);
}

/** The outcome a failure comes down to (failureOutcome's words). */
export function judgedOutcome(told: Told): string | undefined {
  return failureOutcome(told)?.outcome;
}

/**
 * Where in a task's runs the judgement just told falls, in the case being told now, with the words
 * a picture says it with (the outcome's own when the story gave none); undefined when nothing was told.
 */
export function judgedPlace(): (JudgedPlace & { says: string }) | undefined {
  const told = record.getStore();
  const judged = told && failureOutcome(told);
  return judged && { ...judged.place, says: judged.place?.says ?? judged.outcome };
}
