// The checkpoint calls a scenario makes, and what a call's outcome is found to be against what was
// expected (a Finding's Wrong, contract/finding.ts); for a story still told as text, its words
// (report/call-words.ts) with what they tell recorded (told.ts).
import { stateDigest } from "../../lab/canonical.js";
import type { CallResult, ErrorSummary, ScenarioStep } from "../sandbox/messages/scenario.js";
import type { TargetError } from "../contract/verdict.js";
import { formatSeconds } from "../sandbox/messages/limits.js";
import { showState, type JsonState } from "./states.js";
import { toldError, toldOutcome } from "./told.js";
import type { CallMade, CallWrong, Note, ProcessWrong } from "../contract/finding.js";
import { callLead, callOutcome, callWords, fileOf } from "../report/call-words.js";
import { wrongWords } from "../report/finding-story.js";
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
  /** In a run of concurrent writers, whose save the state is: the old state's, saved before they started, or writer n's (0: A). */
  whose?: "old" | number;
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
 * callback, a stream) were still to run; undefined when none did. Told after a failure's story:
 * a load that finds the old state is then explained by a write that had not happened yet.
 */
export function returnedUnfinished(steps: ScenarioStep[], results: CallResult[]): Note | undefined {
  const calls = steps.filter((s): s is Extract<ScenarioStep, { call: string }> => "call" in s);
  const at = results.findIndex((r) => r.status === "returned" && (r.unfinished ?? 0) > 0);
  return at < 0 || !calls[at] ? undefined : { kind: "returned-unfinished", fn: calls[at].call };
}

/** The error a call threw, or printed as it ended the process, as a failure's cause keeps it; none for another outcome. */
export function callErrors(r: CallResult): TargetError[] {
  if (r.status === "threw" || r.status === "import-failed") return [targetError(r.error)];
  return r.status === "exited" ? [{ name: "process.exit", message: r.detail }] : [];
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
  const made = { fn: call, shown: name, result: r };
  tellCall(made);
  return callWords(made);
}

/** What a call a story describes tells: the error it threw or printed, and its outcome, where a picture marks it (told.ts). */
function tellCall(made: CallMade): void {
  for (const e of callErrors(made.result)) toldError(e);
  toldOutcome(callOutcome(made.fn, made.result), { place: { says: callLead(made) } });
}

/** The file describeResult's words for `r` begin by naming ("runner.ts is missing from ..."), if they do. */
export function namedFile(call: string, r: CallResult): string | undefined {
  return r.status === "missing" || r.status === "import-failed" || (r.status === "timed-out" && r.importing && !r.skippedAfter) ? fileOf(call) : undefined;
}

/** What kept a real process from finishing `calls`, as a finding's wrong (process-client.ts's words: "the process did not finish within 20 s ..."), or null. */
export function processWrong(p: ProcessOutcome, calls?: string): ProcessWrong | null {
  const said = unfinished(p, calls);
  if (said === null) return null;
  const outcome = p.timedOut ? "the process did not finish within its time limit" : p.signal ? `the process was killed by ${p.signal}` : p.results ? "the process died" : "the process exited before its calls finished";
  return { kind: "process", said, outcome };
}

/** What a runs picture says of process `p` that did not finish (`wrong`): its words, or, when it ran out of time, that alone, without the guess at why that follows. */
export function processSays(p: ProcessOutcome, wrong: ProcessWrong): string {
  return p.timedOut ? `the process did not finish within ${formatSeconds(p.limits.processMs)}` : wrong.said;
}

/** A call's outcome where a story says what was expected instead: the outcome the failure comes down to (told.ts). */
export function toldUnexpected(call: string, r: CallResult): void {
  toldOutcome(callOutcome(call, r), { judged: true, place: { says: callLead({ fn: call, shown: call, result: r }) } });
}

/** Null when a write returned normally; otherwise what went wrong (a call that was to return). */
export function writeWrong(r: CallResult, state: JsonState): CallWrong | null {
  return r.status === "returned" ? null : { kind: "call", call: { fn: "atomicCheckpoint", shown: `atomicCheckpoint(path, ${showState(state, 60)})`, result: r } };
}

/** Null when a load returned one of the `allowed` states; otherwise what it did instead, and what was expected. `name`: the load as the story names it. */
export function loadWrong(r: CallResult, allowed: Expected[], { name = "loadCheckpoint" }: { name?: string } = {}): CallWrong | null {
  if (r.status === "returned" && allowed.some((a) => r.value.digest === digestOf(a.state))) return null;
  if (allowed.some((a) => a.orAsAbsent && sameOutcome(r, a.orAsAbsent))) return null;
  return { kind: "call", call: { fn: "loadCheckpoint", shown: name, result: r }, expected: allowed.map((a) => ({ label: a.label, shown: showState(a.state, 80) })) };
}

/** writeWrong's finding told as words (the failure's outcome: it was to return), for a story told as text; null when the write returned. */
export function checkWrite(r: CallResult, state: JsonState): string | null {
  const wrong = writeWrong(r, state);
  if (!wrong) return null;
  toldUnexpected("atomicCheckpoint", r);
  return tellWrong(wrong);
}

/** loadWrong's finding told as words, for a story told as text; null when the load returned an allowed state. */
export function checkLoad(r: CallResult, allowed: Expected[], options: { name?: string } = {}): string | null {
  const wrong = loadWrong(r, allowed, options);
  if (!wrong) return null;
  const story = tellWrong(wrong);
  toldUnexpected("loadCheckpoint", r);
  return story;
}

/** A call's finding as a story told as text tells it: its words, with what it tells recorded (told.ts). */
function tellWrong(wrong: CallWrong): string {
  tellCall(wrong.call);
  return wrongWords(wrong);
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
