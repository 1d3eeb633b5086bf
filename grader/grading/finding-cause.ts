// What a finding comes down to, as the report compares it (contract/verdict.ts's Cause): the
// errors of the target's it tells, in the order told (what went wrong first, then those its
// setting tells), and its outcome, made from the Finding's data, as told.ts records them for a
// story still told as text.
import type { Finding, Setting, Wrong } from "../contract/finding.js";
import { eachErrorOnce, type Cause, type TargetError } from "../contract/verdict.js";
import { callOutcome } from "../report/call-words.js";
import { callErrors } from "./calls.js";

export function causeOf({ setting, wrong }: Finding): Pick<Cause, "errors" | "outcome"> {
  const errors = eachErrorOnce([...(wrong.kind === "call" ? callErrors(wrong.call.result) : []), ...settingErrors(setting)]);
  return { ...(errors.length > 0 ? { errors } : {}), outcome: outcomeOf(wrong) };
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
  }
}

/** The errors a setting's words tell: in a chain, what a process's load threw before the save it was cut in; on a disk that said no, what the call threw. */
function settingErrors(setting: Setting | undefined): TargetError[] {
  if (setting?.kind === "disk-said-no") return callErrors(setting.result);
  if (setting?.kind !== "crash-chain") return [];
  return setting.links.flatMap((l) => (l.loaded && l.cut.at >= l.writeStart ? callErrors(l.loaded) : []));
}
