// The target's errors a failure story tells, kept as data while the story is written: the words
// for a call's outcome (calls.ts) and for a session's exit (checks/phase3/sessions.ts) add each
// error they tell to the record of the check's case being told, which the verdict carries as its
// cause (contract/verdict.ts). A story told outside a check (a tool, a test) is recorded nowhere.
import { AsyncLocalStorage } from "node:async_hooks";
import { sameError, type TargetError } from "../contract/verdict.js";

const record = new AsyncLocalStorage<TargetError[]>();

/** Runs `run` with the errors its stories tell added to `errors` (a check's own record: CheckContext.told). */
export function recordingToldErrors<T>(errors: TargetError[], run: () => T): T {
  return record.run(errors, run);
}

/** Adds an error a story tells to the record of the case being told, once. */
export function toldError(error: TargetError): void {
  const errors = record.getStore();
  if (errors && !errors.some((e) => sameError(e, error))) errors.push(error);
}
