// How a call of the target's reads in a failure story, from what it did (CallMade, contract/finding.ts):
// the same words for every deliverable (each phase, the bonus tiers, the stretch goals) and for
// the concurrency engine's reader and writers; and the outcome the class dashboard groups by.
import type { CallMade, CallWrong } from "../contract/finding.js";
import type { CallResult } from "../sandbox/messages/scenario.js";

/** A save (atomicCheckpoint) and what it did, as a call a story tells. */
export function saveCall(result: CallResult): CallMade {
  return { fn: "atomicCheckpoint", shown: "atomicCheckpoint", result };
}

/** What a call did, in words: "returned {...}", "threw SyntaxError: ...", "is not implemented yet". */
export function callWords({ fn, shown, result: r }: CallMade): string {
  const lead = callLead({ fn, shown, result: r });
  // The lead, then what follows it: the message, the details, a hint.
  switch (r.status) {
    case "returned":
    case "missing":
      return lead;
    case "threw":
      return r.error.notImplemented ? `${lead} (it threw "${r.error.message}")` : `${lead}: ${r.error.message}${at(r.error.frames)}${characterPosition(r.error.name, r.error.message)}`;
    case "exited":
      return `${lead}: ${r.detail}`;
    case "import-failed":
      return `${lead}: ${r.error.name}: ${r.error.message}${at(r.error.frames)}`;
    case "timed-out":
      if (r.skippedAfter) return `${lead}: before it, ${r.skippedAfter} (${hangHint(r.skippedAfter)})`;
      if (r.importing) return `${lead}: ${r.detail} (is there a loop at its top level?)`;
      return lead;
  }
}

/** A call that did not do what was expected, in words: "loadCheckpoint returned null; expected the state just written {...}". */
export function callWrongWords({ call, expected }: CallWrong): string {
  const words = callWords(call);
  return expected ? `${words}; expected ${expected.map((e) => `${e.label ? `${e.label} ` : ""}${e.shown}`).join(" or ")}` : words;
}

/**
 * The lead of callWords (what a runs picture says of a call): "runTask threw Error (EEXIST)",
 * "runTask ended the process", without the message or the details that follow.
 */
export function callLead({ fn, shown, result: r }: CallMade): string {
  switch (r.status) {
    case "returned":
      return `${shown} returned ${r.value.preview}`;
    case "threw":
      return r.error.notImplemented ? `${shown} is not implemented yet` : `${shown} threw ${r.error.name}${r.error.code ? ` (${r.error.code})` : ""}`;
    case "exited":
      return `${shown} ended the process`;
    case "missing":
      return `${fileOf(shown)} ${r.detail}`;
    case "import-failed":
      return `${fileOf(shown)} threw while loading`;
    case "timed-out":
      if (r.skippedAfter) return `${shown} was never called`;
      if (r.importing) return `${fileOf(shown)} did not finish loading`;
      return `${shown} ${r.detail} (${hangHint(fn)})`;
  }
}

/**
 * What a call's outcome comes down to, the same for every submission with that bug, from the
 * outcome itself: "loadCheckpoint threw SyntaxError", "atomicCheckpoint threw Error (EEXIST)",
 * "loadCheckpoint returned null", "runTask returned {…}".
 */
export function callOutcome(fn: string, r: CallResult): string {
  switch (r.status) {
    case "returned":
      return `${fn} returned ${shapeOf(r.value)}`;
    case "threw":
      return r.error.notImplemented ? `${fn} is not implemented yet` : `${fn} threw ${errorKind(r.error)}`;
    case "exited":
      return `${fn} ended the process`;
    case "missing":
      return `${fn} is missing from ${fileOf(fn)}`;
    case "import-failed":
      return `${fileOf(fn)} threw ${errorKind(r.error)} while loading`;
    case "timed-out":
      if (r.skippedAfter) return `${fn} was never called: a call before it did not return`;
      return r.importing ? `${fileOf(fn)} did not finish loading` : `${fn} did not return within its time limit`;
  }
}

/** The sentence told after a failure's story when the call `fn` returned before the file-system calls it started had run. */
export function returnedUnfinishedWords(fn: string): string {
  return `${fn} returned before the file-system calls it started had run (fs.promises, callbacks or a stream it did not wait for): they ran after it returned, so a load right after it did not see them.`;
}

/** The target file a function belongs to, for messages about the file itself. */
export function fileOf(call: string): string {
  if (/runTask/.test(call)) return "runner.ts";
  return /recordHistory|loadHistory|firstDivergence/.test(call) ? "diff.ts" : "checkpoint.ts";
}

/** Errors whose message depends on the data (a JSON position, a property name): known by their name alone. */
const BUILT_IN_ERRORS = new Set(["SyntaxError", "TypeError", "RangeError", "ReferenceError", "EvalError", "URIError", "AggregateError"]);

/** An error as two submissions with one bug share it: its name and code, a built-in error by its name, another by its message too (its numbers as #). */
function errorKind(e: { name: string; code?: string; message: string }): string {
  if (e.code) return `${e.name} (${e.code})`;
  return BUILT_IN_ERRORS.has(e.name) || !e.message ? e.name : `${e.name}: ${e.message.replace(/\d+/g, "#")}`;
}

/** What a returned value was, not what it held (the data fast-check chose): null, undefined, {}, {…}, [], […], "…", # or a boolean. */
function shapeOf(v: { isNull: boolean; digest: string | null; preview: string }): string {
  if (v.isNull) return "null";
  if (v.digest === null) return "undefined";
  const start = v.preview.trimStart();
  if (start === "{}" || start === "[]") return start;
  if (start.startsWith("{")) return "{…}";
  if (start.startsWith("[")) return "[…]";
  if (start.startsWith('"')) return '"…"';
  return start === "true" || start === "false" ? start : "#";
}

/** For JSON.parse's "at position N": that N counts characters, where the grader's stories count bytes. */
function characterPosition(name: string, message: string): string {
  return name === "SyntaxError" && /\bposition \d+/.test(message) ? " (JSON.parse counts that position in characters, not bytes)" : "";
}

/** " (at checkpoint.ts:12:7)": where in the student's own code an error was thrown. */
function at(frames?: string[]): string {
  return frames?.length ? ` (at ${frames.join(", called from ")})` : "";
}

/** A question that points at the usual cause of a call that never returns. */
function hangHint(call: string): string {
  if (/^loadCheckpoint/.test(call)) return "is there a loop waiting for a file that is not there?";
  if (/^atomicCheckpoint/.test(call)) return "is there a loop retrying a write, or waiting for a file or a lock?";
  if (/^firstDivergence/.test(call)) return "is there a loop or a recursion that never reaches the end of a history or of a state?";
  return "is there a loop that never reaches the last step, or one waiting for a file?";
}
