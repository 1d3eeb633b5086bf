// The kind of a check's failure, for grouping a class's failures: two students whose failures
// have one kind lost the point the same way. A kind is where the failure happened (from the
// picture, when the check draws one: picture-place.ts) and what went wrong: the outcome its cause
// holds (contract/verdict.ts), made by the grader from what the story was made from. A check that
// waits on another is one kind per check it waits on. A failure whose cause names no outcome (a
// report of a grader that did not record one for that story) falls back to the story's judged
// outcome as story-words.ts reads it.
import type { CheckReport } from "../../../report/report.js";
import { placeOf } from "./picture-place.js";
import { foldPlurals, outcomeOf, plainWords } from "./story-words.js";

/** A failure's kind: what went wrong and where, which together are its key. */
export interface FailureKind {
  /** Equal for two failures of one kind, and only for them (a number's word in the singular: "ran # time" for 2 and 3 times). */
  key: string;
  /** What went wrong: "loadCheckpoint threw SyntaxError", "waits on phase1.round-trip". */
  outcome: string;
  /** Where, when a picture says: "killed right after checkpoint.json was emptied; checkpoint.json left empty"; else "". */
  place: string;
}

/** The kind of a check that did not pass (failed, waits on another check, or could not be run). */
export function failureKind(check: Pick<CheckReport, "status" | "message" | "picture" | "waitsOn" | "cause">): FailureKind {
  const message = check.message ?? "";
  let outcome: string;
  let place = "";
  if (check.status === "blocked") {
    outcome = `waits on ${check.waitsOn?.join(" and ") ?? "another check"}`;
  } else if (check.cause?.outcome) {
    outcome = check.cause.outcome;
    if (check.status === "failed" && check.picture) place = placeOf(check.picture);
  } else if (check.status === "error") {
    const first = message.split("\n")[0]!.replace(/^the grader could not run this check: /, "");
    outcome = `the grader could not run it: ${plainWords(first) || "no reason given"}`;
  } else {
    outcome = message ? outcomeOf(message) : "no story told";
    if (check.picture) place = placeOf(check.picture);
  }
  return { key: foldPlurals(`${check.status}|${place}|${outcome}`), outcome, place };
}
