// The kind of a check's failure, for grouping a class's failures: two students whose failures
// have one kind lost the point the same way. A kind is where the failure happened (from the
// picture, when the check draws one: picture-place.ts) and what went wrong: the outcome its cause
// holds (contract/verdict.ts), made by the grader from what the story was made from. A check that
// waits on another is one kind per check it waits on. A failure whose cause names no outcome (a
// story of a check written without one) is one kind with those whose story is the same, whole.
import type { CheckReport } from "../../../report/report.js";
import { placeOf } from "./picture-place.js";

/** A failure's kind: what went wrong and where, which together are its key. */
export interface FailureKind {
  /** Equal for two failures of one kind, and only for them. */
  key: string;
  /** What went wrong: "loadCheckpoint threw SyntaxError", "waits on phase1.round-trip". */
  outcome: string;
  /** Where, when a picture says: "killed right after checkpoint.json was emptied; checkpoint.json left empty"; else "". */
  place: string;
}

/** The kind of a check that did not pass (failed, waits on another check, or could not be run). */
export function failureKind(check: Pick<CheckReport, "status" | "message" | "picture" | "waitsOn" | "cause">): FailureKind {
  let outcome: string;
  let place = "";
  if (check.status === "blocked") {
    outcome = `waits on ${check.waitsOn?.join(" and ") ?? "another check"}`;
  } else if (check.cause?.outcome) {
    outcome = check.cause.outcome;
    if (check.status === "failed" && check.picture) place = placeOf(check.picture);
  } else {
    // No outcome recorded (a story of a check written without one): one kind with each failure
    // whose story is the same whole, never grouped by what a part of its words seems to say. Its
    // first line names it on the page.
    const said = check.message ?? "";
    outcome = `${check.status === "error" ? "the grader could not run it" : "no outcome recorded"}: ${said.split("\n")[0]}`;
    return { key: `${check.status}|unrecorded|${said}`, outcome, place };
  }
  return { key: `${check.status}|${place}|${outcome}`, outcome, place };
}
