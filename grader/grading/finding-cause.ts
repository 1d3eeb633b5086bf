// What a finding comes down to, as the report compares it (contract/verdict.ts's Cause): the
// errors of the target's it tells and its outcome, made from the Finding's data, as told.ts
// records them for a story still told as text.
import type { Finding } from "../contract/finding.js";
import type { Cause } from "../contract/verdict.js";
import { callOutcome } from "../report/call-words.js";
import { targetError } from "./calls.js";

export function causeOf({ wrong }: Finding): Pick<Cause, "errors" | "outcome"> {
  switch (wrong.kind) {
    case "call": {
      const r = wrong.call.result;
      const error = r.status === "threw" || r.status === "import-failed" ? targetError(r.error) : r.status === "exited" ? { name: "process.exit", message: r.detail } : undefined;
      return { ...(error ? { errors: [error] } : {}), outcome: callOutcome(wrong.call.fn, r) };
    }
    case "sandbox":
    case "process":
      return { outcome: wrong.outcome };
    case "no-write-to-kill":
      return { outcome: "atomicCheckpoint wrote no bytes to be killed in" };
  }
}
