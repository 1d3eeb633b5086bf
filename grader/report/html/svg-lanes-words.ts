// The words of a "lanes" picture (contract/picture-lanes.ts): what its SVG shows, said as sentences,
// for a screen reader (the SVG's text alternative) and for anyone the drawing does not reach.
import { loadLabel, type LanesLoad, type LanesPicture, type LanesStep } from "../../contract/picture-lanes.js";

/** What a load returned, in words: "the old state", "writer B's state", "null", "an error, SyntaxError". */
export function loadWords(load: LanesLoad): string {
  if (load.saw === "threw") return `an error${load.error ? `, ${load.error}` : ""}`;
  if (load.saw === "other") return "a state no writer saved";
  if (load.saw === "no answer") return "no answer";
  const [first, ...same] = (load.states ?? []).map((s) => (s === "null" ? "null" : s === "none" ? "no checkpoint" : s === "old" ? "the old state" : `writer ${s}'s state`));
  return same.length ? `${first} (the same as ${same.join(" and ")})` : (first ?? "");
}

/** Where a load fell: "before any call", "after step 6", "once every writer had returned". */
export function loadPlace(load: LanesLoad): string {
  if (load.final) return "once every writer had returned";
  return load.afterStep === 0 ? "before any call" : `after step ${load.afterStep}`;
}

/** One step in words: "3. B: writeFileSync writes 55 bytes to checkpoint.json.tmp", or "(steps 5 to 40, left out)". */
export function stepWords(step: LanesStep): string {
  if (step.skipped) return `(steps ${step.n} to ${step.n + step.skipped - 1}, left out)`;
  return `${step.n}. ${step.writer}: ${step.what}${step.failed ? " (it failed)" : ""}`;
}

/** Where the failure fell and what it was: "After step 10, the reader's loadCheckpoint threw SyntaxError." */
export function failureWords(picture: LanesPicture): string {
  const { kind, afterStep, short } = picture.failure;
  const where = kind === "final" ? "Once every writer had returned" : afterStep === 0 ? "Before any call" : `After step ${afterStep}`;
  return `${where}, ${short}.`;
}

/** The whole picture in words: who saved what, the steps in order, each load and what it returned, and what went wrong. */
export function lanesWords(picture: LanesPicture): string {
  const writers = picture.writers.map((w) => `${w.name} saves ${w.saves}`).join(", ");
  const before = picture.before === null ? "there was no checkpoint before" : `it held ${picture.before} before`;
  const steps = picture.steps.length ? ` Their file-system calls, in the order they ran: ${picture.steps.map(stepWords).join("; ")}.` : "";
  const loads = picture.loads.map((l) => `${loadPlace(l)}: ${loadWords(l)} (${loadLabel(l)})${l.wrong ? ", wrong" : ""}${l.changed?.length ? `, and the load ${l.changed.join(", ")}` : ""}`);
  const seen = loads.length ? ` The reader's loads drawn: ${loads.join("; ")}.` : "";
  return `${picture.writers.length} writers saved checkpoint.json at once (${writers}; ${before}) while a reader loaded it.${steps}${seen} ${failureWords(picture)}`;
}
