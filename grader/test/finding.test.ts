// A check that returns a Finding gets from it the story and the cause that a check telling the
// same failure as text gets from its words and the record they leave (told.ts): the same
// sentence, the same errors, the same outcome. Checks move to Findings one at a time; this is
// what keeps their students' reports the same as they do.
import { describe, expect, test } from "vitest";
import { checkLoad, checkWrite, loadWrong, writeWrong } from "../grading/calls.js";
import { causeOf } from "../grading/finding-cause.js";
import { judgedOutcome, nothingTold, recordingTold } from "../grading/told.js";
import { storyOf, wrongWords } from "../report/finding-story.js";
import type { CallResult } from "../sandbox/messages/scenario.js";
import type { BudgetSteps, Finding, KilledProcesses, RecoveryStep, StepsByProcess, Wrong } from "../contract/finding.js";
import { taskWrongMark } from "../report/task-words.js";
import { gradedTask, judgeRecord, recordWrong, type Done } from "../checks/phase2/ledger.js";
import { checkRunResult, runResultWrong } from "../checks/phase2/task-run.js";
import { DEFAULT_TASK } from "../rubric-task.js";
import { stateDigest } from "../../lab/canonical.js";

const threw = (message: string, { name = "Error", code, frames }: { name?: string; code?: string; frames?: string[] } = {}): CallResult => ({ status: "threw", error: { name, message, ...(code ? { code } : {}), notImplemented: false, ...(frames ? { frames } : {}) } });
const returned = (preview: string, { isNull = false } = {}): CallResult => ({ status: "returned", value: { preview, digest: preview === "undefined" ? null : `d-${preview}`, isNull } });

/** One of every kind of outcome a call can have, each with what it did. */
const RESULTS: [string, CallResult][] = [
  ["returned null", returned("null", { isNull: true })],
  ["returned an object", returned('{"step":1}')],
  ["returned undefined", returned("undefined")],
  ["threw a SyntaxError with a position, in the student's code", threw("Unexpected end of JSON input at position 12", { name: "SyntaxError", frames: ["loadCheckpoint (checkpoint.ts:9:3)"] })],
  ["threw an error with a code", threw("no space left on device", { code: "ENOSPC" })],
  ["is not implemented yet", { status: "threw", error: { name: "Error", message: "not implemented yet", notImplemented: true } }],
  ["ended the process", { status: "exited", detail: "exited with code 3" }],
  ["is missing", { status: "missing", detail: "is missing from checkpoint.ts (it exports nothing by that name)" }],
  ["did not return", { status: "timed-out", detail: "did not return within 5 s" }],
  ["is in a file that did not finish loading", { status: "timed-out", detail: "did not finish loading within 5 s", importing: true }],
  ["was never called", { status: "timed-out", detail: "was never called", skippedAfter: "atomicCheckpoint did not return within 5 s" }],
  ["is in a file that threw while loading", { status: "import-failed", error: { name: "TypeError", message: "x is not a function", notImplemented: false } }],
];

/** What a story told as text gives: its words, and the errors and outcome its telling recorded. */
function toldAsText(tell: () => string | null) {
  const told = nothingTold();
  const words = recordingTold(told, tell);
  return { words, errors: told.errors, outcome: judgedOutcome(told) };
}

describe("a call's finding, against the same failure told as text", () => {
  test.each(RESULTS)("a load that %s: the same words, errors and outcome", (_, r) => {
    const allowed = [{ label: "the state just written", state: { step: 2 } }, { label: "", state: null }];
    const text = toldAsText(() => checkLoad(r, allowed, { name: "loadCheckpoint(checkpoint.json)" }));
    const wrong = loadWrong(r, allowed, { name: "loadCheckpoint(checkpoint.json)" });
    expect(text.words).not.toBeNull();
    expect(wrongWords(wrong!)).toBe(text.words);
    expect(causeOf({ wrong: wrong! })).toEqual({ ...(text.errors.length > 0 ? { errors: text.errors } : {}), outcome: text.outcome });
  });

  test.each(RESULTS.filter(([, r]) => r.status !== "returned"))("a write that %s: the same words, errors and outcome", (_, r) => {
    const text = toldAsText(() => checkWrite(r, { step: 2, notes: ["a"] }));
    const wrong = writeWrong(r, { step: 2, notes: ["a"] });
    expect(wrongWords(wrong!)).toBe(text.words);
    expect(causeOf({ wrong: wrong! })).toEqual({ ...(text.errors.length > 0 ? { errors: text.errors } : {}), outcome: text.outcome });
  });

  test("a load that returned an allowed state, and a write that returned, are no finding", () => {
    const nullLoaded: CallResult = { status: "returned", value: { preview: "null", digest: stateDigest(null), isNull: true } };
    expect(loadWrong(nullLoaded, [{ label: "the state just written", state: [1] }, { label: "", state: null }])).toBeNull();
    expect(loadWrong(nullLoaded, [{ label: "the state just written", state: [1] }])).not.toBeNull();
    expect(writeWrong(returned("undefined"), 1)).toBeNull();
  });
});

describe("a task run's finding, against the same failure told as text", () => {
  const task = gradedTask(DEFAULT_TASK);
  const whole = (wrong: Wrong): Finding => ({ when: { kind: "task-run", run: "whole-once", steps: task.steps }, wrong });
  const asText = (problem: string | null) => (problem === null ? null : `runTask ran the ${task.steps}-step task once, with no crash: ${problem}.`);

  test.each(RESULTS)("runTask that %s: the same words, errors and outcome", (_, r) => {
    const wrong = runResultWrong(task, r, task.steps)!;
    const text = toldAsText(() => asText(checkRunResult(task, r, task.steps)));
    expect({ words: storyOf(whole(wrong)), ...causeOf(whole(wrong)) }).toEqual({ words: text.words, ...(text.errors.length ? { errors: text.errors } : {}), outcome: text.outcome });
  });

  test("a record that breaks each rule: the same words and outcome", () => {
    const done = (steps: number[]): Done[] => steps.map((step) => ({ step, run: 1, input: task.expected.inputs[step] ?? "none" }));
    const records = [done([1, 2, 12]), done([1, 2, 3]), done([...Array(10).keys()].map((i) => i + 1).concat(4)), [{ step: 1, run: 1, input: "other" }, ...done([2, 3, 4, 5, 6, 7, 8, 9, 10])]];
    expect(records.map((record) => recordWrong(task, record)?.went.kind)).toEqual(["step-outside", "never-ran", "ran-again", "wrong-state"]);
    for (const record of records) {
      const wrong = recordWrong(task, record)!;
      const text = toldAsText(() => asText(judgeRecord(task, record)));
      expect({ words: storyOf(whole(wrong)), outcome: causeOf(whole(wrong)).outcome }).toEqual({ words: text.words, outcome: text.outcome });
    }
  });
});

describe("a finding's story", () => {
  test("of runTask calling runStep once the task was done names each later run, its maxSteps and the steps it called, and its outcome names none", () => {
    const finding: Finding = { wrong: { kind: "ran-when-done", runs: [{ run: 2, steps: [1, 2] }, { run: 3, maxSteps: 3, steps: [10] }] } };
    expect(storyOf(finding)).toBe("After the task was done, runTask ran again on the finished checkpoint, in a new process each time: run 2 (no maxSteps) called runStep(1), runStep(2); run 3 (maxSteps 3) called runStep(10). Each must call no runStep.");
    expect(causeOf(finding)).toEqual({ outcome: "runTask called runStep on a finished checkpoint" });
  });

  test("of the handout's kill at a step is one line: the kill, then what process 2 did wrong; or what process 1 did instead of being killed", () => {
    const killed = (wrong: Wrong): Finding => ({ setting: { kind: "killed-entering-step", step: 6, killed: true }, wrong });
    const steps: Wrong = { kind: "steps-by-process", ran: [[1, 2, 3, 4, 5], [5, 6, 7, 8, 9, 10]], expected: [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]] };
    expect(storyOf(killed(steps))).toBe("Process 1 ran runTask and was killed with SIGKILL as it entered runStep(6). Process 2 ran runTask again: the record shows steps [1, 2, 3, 4, 5] in process 1 and [5, 6, 7, 8, 9, 10] in process 2; expected [1, 2, 3, 4, 5] and [6, 7, 8, 9, 10].");
    expect(causeOf(killed(steps))).toEqual({ outcome: "the two processes ran other steps than the kill allows" });
    expect(taskWrongMark(steps as StepsByProcess)).toEqual({ says: "the record shows steps [1, 2, 3, 4, 5] in process 1 and [5, 6, 7, 8, 9, 10] in process 2; expected [1, 2, 3, 4, 5] and [6, 7, 8, 9, 10]" });
    const notKilled = (wrong: Wrong): Finding => ({ setting: { kind: "killed-entering-step", step: 6, killed: false }, wrong });
    expect(storyOf(notKilled({ kind: "never-entered", step: 6 }))).toBe("Process 1 ran runTask, to be killed when it entered runStep(6), but it never did.");
    expect(causeOf(notKilled({ kind: "never-entered", step: 6 }))).toEqual({ outcome: "runTask never entered the step it was to be killed in" });
    const exited: Wrong = { kind: "process", said: "the process exited with code 3 before its calls finished", outcome: "the process exited before its calls finished" };
    expect(storyOf(notKilled(exited))).toBe("Process 1 ran runTask, to be killed when it entered runStep(6), but it never did: the process exited with code 3 before its calls finished.");
    expect(causeOf(killed(exited))).toEqual({ outcome: "the process exited before its calls finished" });
  });

  test("of runs with step budgets names the budgets, then the run that went wrong and how; its outcome says whether that run had a budget", () => {
    const budgets = [4, 4];
    const steps: Wrong = { kind: "budget-steps", run: 2, maxSteps: 4, ran: [5, 6, 7], expected: [5, 6, 7, 8] };
    expect(storyOf({ when: { kind: "budgeted-runs", budgets }, wrong: steps })).toBe("Ran runTask in 3 processes with maxSteps 4, 4, then none: run 2 (maxSteps 4) ran steps [5, 6, 7]; expected [5, 6, 7, 8].");
    expect(causeOf({ when: { kind: "budgeted-runs", budgets }, wrong: steps })).toEqual({ outcome: "a run with maxSteps ran other steps than the next ones it had left" });
    // The runs picture marks that run, in the story's words for it.
    expect(taskWrongMark(steps as BudgetSteps)).toEqual({ run: 2, says: "run 2 (maxSteps 4) ran steps [5, 6, 7]; expected [5, 6, 7, 8]" });
    const last: Wrong = { kind: "budget-steps", run: 3, ran: [], expected: [9, 10] };
    expect(causeOf({ when: { kind: "budgeted-runs", budgets }, wrong: last })).toEqual({ outcome: "a run with no maxSteps ran other steps than the next ones it had left" });
    const status: Wrong = { kind: "task-result", stepsDone: 4, steps: 10, got: { kind: "run", status: "done", nextStep: 5 } };
    expect(storyOf({ when: { kind: "budgeted-runs", budgets, inRun: 1 }, wrong: status })).toBe('Ran runTask in 3 processes with maxSteps 4, 4, then none: in run 1, runTask returned { status: "done", nextStep: 5 }; expected { status: "paused", nextStep: 5 } after 4 of 10 steps.');
  });

  test("of the run a crash check records to crash names the call when it made too many file-system calls, and says which run failed", () => {
    const threw: CallResult = { status: "threw", error: { name: "Error", code: "EEXIST", message: "file exists", notImplemented: false } };
    const call: Wrong = { kind: "call", call: { fn: "runTask", shown: "runTask", result: threw } };
    const tooMany: Wrong = { kind: "too-many-calls", fn: "runTask", limits: "10 calls" };
    expect(storyOf({ when: { kind: "task-run", run: "crash-free", steps: 10 }, wrong: call })).toBe("A run with no crash failed first: runTask threw Error (EEXIST): file exists.");
    expect(storyOf({ when: { kind: "task-run", run: "crash-free-git", steps: 10 }, wrong: tooMany })).toBe("A run of runTask (git-checkpoint.ts) with no crash failed first: runTask made more file-system calls than the grader records (10 calls).");
    expect(storyOf({ when: { kind: "after-crashes", run: 1, newProcess: false, toCrash: true }, wrong: call })).toBe("Run 1 failed: runTask threw Error (EEXIST): file exists.");
    expect(causeOf({ when: { kind: "task-run", run: "crash-free", steps: 10 }, wrong: call })).toEqual({ errors: [{ name: "Error", code: "EEXIST", message: "file exists" }], outcome: "runTask threw Error (EEXIST)" });
  });

  const wrong = loadWrong(returned("null", { isNull: true }), [{ label: "the last state written", state: [1] }])!;

  test("is its setting, then what came back against what was expected, then each note, a line each", () => {
    const story = storyOf({ setting: { kind: "writes-in-turn", shown: ["null", "{}", "[1]"] }, wrong, notes: [{ kind: "returned-unfinished", fn: "atomicCheckpoint" }] });
    expect(story.split("\n")).toEqual([
      "Wrote null, then {}, then [1], loading after each write.",
      "loadCheckpoint returned null; expected the last state written [1]",
      "atomicCheckpoint returned before the file-system calls it started had run (fs.promises, callbacks or a stream it did not wait for): they ran after it returned, so a load right after it did not see them.",
    ]);
  });

  test("says a call a fresh process made was made after a restart", () => {
    expect(storyOf({ when: { kind: "after-restart" }, wrong })).toBe("After a restart (a fresh process), loadCheckpoint returned null; expected the last state written [1]");
  });

  test("of a call the process recovering from a crash made tells only what that process had done before it, as far as it got", () => {
    const told = (reached: RecoveryStep) => storyOf({ when: { kind: "recovering", reached, wrote: "{\"step\":3}", again: "{\"step\":2}" }, wrong });
    const lead = "The next process (with the same process id, as a restarted container gets) loaded, ";
    const said = ": loadCheckpoint returned null; expected the last state written [1].";
    expect(told("write-new")).toBe(`${lead}then tried to write a new state${said}`);
    expect(told("load-new")).toBe(`${lead}wrote {"step":3}, then loaded it back${said}`);
    expect(told("write-again")).toBe(`${lead}wrote {"step":3} and loaded it back, then tried to write again the state it was writing when it crashed${said}`);
    expect(told("load-again")).toBe(`${lead}wrote {"step":3} and loaded it back, wrote again the state it was writing when it crashed, {"step":2}, then loaded it back${said}`);
    expect(told("load-after-restart")).toBe(`${lead}wrote {"step":3}, wrote again the state it was writing when it crashed, {"step":2}, and loaded each back; after a further restart${said}`);
  });

  test("of killed processes tells what each process did before the step that failed, a line each, and frames the failure by that step", () => {
    const setting = (at: KilledProcesses["at"]): KilledProcesses => ({ kind: "killed-processes", at, old: "{\"a\":1}", next: "{\"b\":2}", after: "{\"c\":3}", torn: { api: "writeSync", file: "x", shownFile: "checkpoint.json.*.tmp", written: 10, of: 20 } });
    const process = { kind: "process", said: "the process was killed by SIGSEGV", outcome: "the process was killed by SIGSEGV" } as const;
    expect(storyOf({ setting: setting("write-old"), wrong: process })).toBe("Process 1 tried to write the old checkpoint: the process was killed by SIGSEGV.");
    expect(storyOf({ setting: setting("kill-in-write"), wrong: { kind: "no-write-to-kill" } }).split("\n")).toEqual([
      'Process 1 wrote the old checkpoint {"a":1}.',
      `Process 2 called atomicCheckpoint(path, {"b":2}) to be killed during its first write, but it finished without writing any bytes, through Node's fs or a program it ran.`,
    ]);
    expect(storyOf({ setting: setting("kill-in-write"), wrong: process })).toContain("but it failed first: the process was killed by SIGSEGV.");
    expect(storyOf({ setting: setting("load-in-next"), wrong }).split("\n")).toEqual([
      'Process 1 wrote the old checkpoint {"a":1}.',
      'Process 2 called atomicCheckpoint(path, {"b":2}) and was killed with SIGKILL in the middle of writeSync("checkpoint.json.*.tmp"): 10 of 20 bytes had reached the file.',
      "Process 3 loaded the old checkpoint.",
      'Process 4 wrote {"c":3}. Process 5 then: loadCheckpoint returned null; expected the last state written [1].',
    ]);
    expect(causeOf({ setting: setting("kill-in-write"), wrong: { kind: "no-write-to-kill" } })).toEqual({ outcome: "atomicCheckpoint wrote no bytes to be killed in" });
  });

  test("of a sandbox failure ends with a full stop unless its words end a sentence or a bracket, and its cause is its outcome alone", () => {
    const sandbox = (said: string) => ({ wrong: { kind: "sandbox", said, outcome: "the process running your code ran out of memory" } as const });
    expect(storyOf(sandbox("ran out of memory"))).toBe("The process running your code ran out of memory.");
    expect(storyOf(sandbox("ran out of memory (384 MiB)"))).toBe("The process running your code ran out of memory (384 MiB)");
    expect(causeOf(sandbox("ran out of memory"))).toEqual({ outcome: "the process running your code ran out of memory" });
  });
});
