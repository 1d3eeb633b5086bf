// The checkpoint calls a scenario makes, and how a call's outcome reads in a failure story: the
// same words for every deliverable (each phase, the bonus tiers, the stretch goals) and for the
// concurrency engine's reader and writers.
import { stateDigest } from "../../lab/canonical.js";
import type { CallResult, ErrorSummary, ScenarioStep } from "../sandbox/messages/scenario.js";
import type { TargetError } from "../contract/verdict.js";
import { formatSeconds } from "../sandbox/messages/limits.js";
import { showState, type JsonState } from "./states.js";
import { toldError, toldOutcome } from "./told.js";
import { unfinished, type ProcessOutcome } from "../sandbox/supervisor/process-client.js";

/** The checkpoint path every Phase 1 scenario uses, inside the scenario's folder. */
export const CHECKPOINT = { $path: "work/checkpoint.json" };

export const write = (state: JsonState, path: unknown = CHECKPOINT): ScenarioStep => ({ call: "atomicCheckpoint", args: [path, state] });
export const load = (path: unknown = CHECKPOINT): ScenarioStep => ({ call: "loadCheckpoint", args: [path] });
export const restart: ScenarioStep = { fresh: true };

/** An allowed outcome of a load: a state, or null for "no checkpoint". */
export interface Expected {
  label: string;
  state: JsonState;
  /**
   * For "no checkpoint": also what this code's loadCheckpoint gives where nothing was ever written,
   * even when that is not null. phase1.absent charges that answer; a check of crashes does not charge it again.
   */
  orAsAbsent?: CallResult;
}

/** "No checkpoint": null, or what `absent` (a load where nothing was ever written) gave, when it returned or threw. */
export function noCheckpoint(absent?: CallResult): Expected {
  return { label: "", state: null, ...(absent && (absent.status === "returned" || absent.status === "threw") ? { orAsAbsent: absent } : {}) };
}

const absentLoads = new WeakMap<object, Promise<CallResult>>();

/** What loadCheckpoint gives in a scenario where nothing was ever written, asked once per sandbox. */
export function absentOutcome(box: { run(module: string, scenario: { steps: ScenarioStep[] }): Promise<{ results: CallResult[] }> }): Promise<CallResult> {
  let outcome = absentLoads.get(box);
  if (!outcome) absentLoads.set(box, (outcome = box.run("checkpoint", { steps: [load()] }).then((run) => run.results[0]!)));
  return outcome;
}

/**
 * The first call of `steps` that returned while file-system calls it started (fs.promises, a
 * callback, a stream) were still to run, in a sentence; "" when none did. Told after a failure's
 * story: a load that finds the old state is then explained by a write that had not happened yet.
 */
export function unfinishedNote(steps: ScenarioStep[], results: CallResult[]): string {
  const calls = steps.filter((s): s is Extract<ScenarioStep, { call: string }> => "call" in s);
  const at = results.findIndex((r) => r.status === "returned" && (r.unfinished ?? 0) > 0);
  if (at < 0 || !calls[at]) return "";
  const name = calls[at].call;
  return `\n${name} returned before the file-system calls it started had run (fs.promises, callbacks or a stream it did not wait for): they ran after it returned, so a load right after it did not see them.`;
}

/** An error the target's code threw, as a failure's cause keeps it: its name, code and message. */
export function targetError(e: ErrorSummary): TargetError {
  return { name: e.name, ...(e.code ? { code: e.code } : {}), message: e.message };
}

/**
 * What a call did, in words: "returned {...}", "threw SyntaxError: ...", "is not implemented yet".
 * `name` is the call as the story shows it ("atomicCheckpoint(path, {...})"); `call`, the function
 * (`name` when it is only that). The error and the outcome it tells go with the verdict (told.ts).
 */
export function describeResult(name: string, r: CallResult, { call = name }: { call?: string } = {}): string {
  if (r.status === "threw" || r.status === "import-failed") toldError(targetError(r.error));
  if (r.status === "exited") toldError({ name: "process.exit", message: r.detail });
  const lead = leadOf(name, r, call);
  toldOutcome(outcomeOf(call, r), { place: { says: lead } });
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

/** The file describeResult's words for `r` begin by naming ("runner.ts is missing from ..."), if they do. */
export function namedFile(call: string, r: CallResult): string | undefined {
  return r.status === "missing" || r.status === "import-failed" || (r.status === "timed-out" && r.importing && !r.skippedAfter) ? fileOf(call) : undefined;
}

/** What kept a real process from finishing `calls` (process-client.ts's words: "the process did not finish within 20 s ..."), or null; its outcome told (told.ts). */
export function unfinishedProcess(p: ProcessOutcome, calls?: string): string | null {
  const words = unfinished(p, calls);
  if (words === null) return null;
  // A picture says a process that ran out of time without the guess at why that follows.
  const says = p.timedOut ? `the process did not finish within ${formatSeconds(p.limits.processMs)}` : words;
  toldOutcome(p.timedOut ? "the process did not finish within its time limit" : p.signal ? `the process was killed by ${p.signal}` : p.results ? "the process died" : "the process exited before its calls finished", { judged: true, place: { says } });
  return words;
}

/** A call's outcome where a story says what was expected instead: the outcome the failure comes down to (told.ts). */
export function toldUnexpected(call: string, r: CallResult): void {
  toldOutcome(outcomeOf(call, r), { judged: true, place: { says: leadOf(call, r, call) } });
}

/**
 * The lead of describeResult's words for `r` (what a runs picture says of it): "runTask threw
 * Error (EEXIST)", "runTask ended the process", without the message or the details that follow.
 */
function leadOf(name: string, r: CallResult, call: string): string {
  switch (r.status) {
    case "returned":
      return `${name} returned ${r.value.preview}`;
    case "threw":
      return r.error.notImplemented ? `${name} is not implemented yet` : `${name} threw ${r.error.name}${r.error.code ? ` (${r.error.code})` : ""}`;
    case "exited":
      return `${name} ended the process`;
    case "missing":
      return `${fileOf(name)} ${r.detail}`;
    case "import-failed":
      return `${fileOf(name)} threw while loading`;
    case "timed-out":
      if (r.skippedAfter) return `${name} was never called`;
      if (r.importing) return `${fileOf(name)} did not finish loading`;
      return `${name} ${r.detail} (${hangHint(call)})`;
  }
}

/**
 * What a call's outcome comes down to, the same for every submission with that bug, from the
 * outcome itself: "loadCheckpoint threw SyntaxError", "atomicCheckpoint threw Error (EEXIST)",
 * "loadCheckpoint returned null", "runTask returned {…}".
 */
function outcomeOf(call: string, r: CallResult): string {
  switch (r.status) {
    case "returned":
      return `${call} returned ${shapeOf(r.value)}`;
    case "threw":
      return r.error.notImplemented ? `${call} is not implemented yet` : `${call} threw ${errorKind(r.error)}`;
    case "exited":
      return `${call} ended the process`;
    case "missing":
      return `${call} is missing from ${fileOf(call)}`;
    case "import-failed":
      return `${fileOf(call)} threw ${errorKind(r.error)} while loading`;
    case "timed-out":
      if (r.skippedAfter) return `${call} was never called: a call before it did not return`;
      return r.importing ? `${fileOf(call)} did not finish loading` : `${call} did not return within its time limit`;
  }
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

/** Null when a write returned normally; otherwise what went wrong (the failure's outcome: it was to return). */
export function checkWrite(r: CallResult, state: JsonState): string | null {
  if (r.status === "returned") return null;
  toldUnexpected("atomicCheckpoint", r);
  return describeResult(`atomicCheckpoint(path, ${showState(state, 60)})`, r, { call: "atomicCheckpoint" });
}

/** Null when a load returned one of the `allowed` states; otherwise what it did instead, and what was expected. `name`: the load as the story names it. */
export function checkLoad(r: CallResult, allowed: Expected[], { name = "loadCheckpoint" }: { name?: string } = {}): string | null {
  if (r.status === "returned" && allowed.some((a) => r.value.digest === digestOf(a.state))) return null;
  if (allowed.some((a) => a.orAsAbsent && sameOutcome(r, a.orAsAbsent))) return null;
  const expected = allowed.map((a) => `${a.label ? `${a.label} ` : ""}${showState(a.state, 80)}`).join(" or ");
  const story = `${describeResult(name, r, { call: "loadCheckpoint" })}; expected ${expected}`;
  toldUnexpected("loadCheckpoint", r);
  return story;
}

/** Whether two calls ended the same way: the same value returned, or the same error thrown. */
function sameOutcome(a: CallResult, b: CallResult): boolean {
  if (a.status === "returned" && b.status === "returned") return a.value.digest === b.value.digest && a.value.preview === b.value.preview;
  if (a.status === "threw" && b.status === "threw") return a.error.name === b.error.name && a.error.code === b.error.code && a.error.message === b.error.message;
  return false;
}

const digests = new WeakMap<object, string>();

/** The digest of an expected state, made once per state object: each is compared with hundreds of loads. */
function digestOf(state: JsonState): string {
  if (state === null || typeof state !== "object") return stateDigest(state);
  let digest = digests.get(state);
  if (digest === undefined) digests.set(state, (digest = stateDigest(state)));
  return digest;
}

/** The target file a function belongs to, for messages about the file itself. */
function fileOf(call: string): string {
  if (/runTask/.test(call)) return "runner.ts";
  return /recordHistory|loadHistory|firstDivergence/.test(call) ? "diff.ts" : "checkpoint.ts";
}
