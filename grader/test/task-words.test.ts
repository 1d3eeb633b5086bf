// A task's runs judged as data: what recordWrong finds in a record of side effects (RecordWrong),
// what runResultWrong finds in what runTask returned (TaskResultWrong), and the sentence, picture
// words and outcome rendered from each alone.
import { describe, expect, test } from "vitest";
import { gradedTask, recordWrong, type Done } from "../checks/phase2/ledger.js";
import { DEFAULT_TASK } from "../rubric-task.js";
import { recordOutcome, recordSays, recordWrongWords, taskCrashesWords, taskResultOutcome, taskResultSays, taskResultWords } from "../report/task-words.js";
import type { Finding, RecordWrong, TaskCrashes, TaskResultWrong } from "../contract/finding.js";
import { judgeRecovery, type Crash } from "../checks/phase2/crash-recovery.js";
import type { Trace } from "../crash/model.js";
import { storyOf } from "../report/finding-story.js";
import { causeOf } from "../grading/finding-cause.js";
import { runResultWrong } from "../checks/phase2/task-run.js";
import type { CallResult } from "../sandbox/messages/scenario.js";

const task = gradedTask(DEFAULT_TASK);
const ALL = Array.from({ length: task.steps }, (_, i) => i + 1);
/** Each step in `steps` done on the right state, in process `runOf(i)`. */
const record = (steps: number[], runOf: (i: number) => number = () => 1): Done[] =>
  steps.map((step, i) => ({ step, run: runOf(i), input: task.expected.inputs[step] ?? "none", output: task.expected.outputs[step] }));

describe("recordWrong: what a record of side effects shows, as data", () => {
  test("a whole run, each step once on the state before it, is no finding; a crash in a step's window allows that step once more", () => {
    expect(recordWrong(task, record(ALL))).toBeNull();
    const again = [...ALL.slice(0, 5), 5, ...ALL.slice(5)];
    expect(recordWrong(task, record(again), [0, 0, 0, 0, 0, 1])).toBeNull();
    expect(recordWrong(task, record(again), [0, 0, 0, 0, 1])).toEqual({ kind: "record", unit: "run", went: { kind: "ran-again", step: 5, runs: [1, 1], crashes: 0 } });
  });

  test("a step outside the task is found before a missing step; a missing step names the record it reads from", () => {
    expect(recordWrong(task, record([1, 2, 11]))?.went).toEqual({ kind: "step-outside", step: 11, steps: 10 });
    expect(recordWrong(task, record(ALL.filter((s) => s !== 4)))?.went).toEqual({ kind: "never-ran", step: 4, held: [1, 2, 3, 5, 6, 7, 8, 9, 10] });
  });

  test("a step on the wrong state names the process and the state by what produced it", () => {
    const done = record(ALL, (i) => (i < 6 ? 1 : 2));
    done[6] = { ...done[6]!, input: task.expected.outputs[5]! };
    expect(recordWrong(task, done, [], "session")).toEqual({ kind: "record", unit: "session", went: { kind: "wrong-state", step: 7, run: 2, state: { kind: "after-step", step: 5 } } });
    done[6] = { ...done[6]!, input: "no such digest" };
    expect(recordWrong(task, done)?.went).toMatchObject({ state: { kind: "never-produced" } });
  });
});

describe("a record's words, rendered from the finding alone", () => {
  const wrong = (went: RecordWrong["went"], unit: RecordWrong["unit"] = "run"): RecordWrong => ({ kind: "record", unit, went });

  test("each kind's sentence, as a student reads it", () => {
    expect(recordWrongWords(wrong({ kind: "step-outside", step: 0, steps: 10 }))).toBe("runStep was called with step 0; the task's steps are 1 to 10");
    expect(recordWrongWords(wrong({ kind: "never-ran", step: 2, held: [1] }))).toBe("step 2 never ran (the record holds only step 1)");
    expect(recordWrongWords(wrong({ kind: "wrong-state", step: 1, run: 2, state: { kind: "never-produced" } }, "session"))).toBe("step 1 ran (in session 2) with a state the task never produced; it must start from the state after step 0 (the initial state)");
    expect(recordWrongWords(wrong({ kind: "ran-again", step: 3, runs: [1, 2, 3], crashes: 1 }))).toBe("step 3 ran 3 times (in runs 1, 2, 3): only 1 crash landed between its side effect and its checkpoint");
    expect(recordWrongWords(wrong({ kind: "ran-again", step: 3, runs: [1, 2], crashes: 0 }))).toBe("step 3 ran 2 times (in runs 1, 2): no crash landed between its side effect and its checkpoint, so it must run exactly once");
  });

  test("the picture's words are the sentence without its reasons", () => {
    const never = wrong({ kind: "never-ran", step: 2, held: [] });
    expect(recordSays(never)).toBe("step 2 never ran");
    expect(recordWrongWords(never)).toBe("step 2 never ran (the record holds no step)");
  });

  test("the outcome is the kind of judgement: the same whichever step, process or state it names", () => {
    expect(recordOutcome({ kind: "wrong-state", step: 7, run: 2, state: { kind: "after-step", step: 5 } })).toBe(recordOutcome({ kind: "wrong-state", step: 3, run: 1, state: { kind: "after-step", step: 1 } }));
    expect(recordOutcome({ kind: "wrong-state", step: 3, run: 1, state: { kind: "initial" } })).toBe("a step ran with the initial state");
    expect(recordOutcome({ kind: "ran-again", step: 3, runs: [1, 2, 3], crashes: 1 })).not.toBe(recordOutcome({ kind: "ran-again", step: 3, runs: [1, 2], crashes: 0 }));
  });
});

describe("runResultWrong: what runTask returned, as data, and its words", () => {
  const ran = (status: unknown, nextStep: unknown, stateDigest: string | null): CallResult => ({ status: "returned", value: { preview: "{...}", digest: "d", isNull: false, run: { status, nextStep, stateDigest } } });
  const judged = (r: CallResult, stepsDone: number): TaskResultWrong => runResultWrong(task, r, stepsDone)!;

  test("the run it must return after its last step is no finding: paused before the end, done at it", () => {
    expect(runResultWrong(task, ran("paused", 5, task.expected.outputs[4]!), 4)).toBeNull();
    expect(runResultWrong(task, ran("done", 11, task.expected.outputs[10]!), 10)).toBeNull();
  });

  test("a wrong status, a wrong nextStep and a wrong state are each told with what was expected", () => {
    const status = judged(ran("done", 5, task.expected.outputs[4]!), 4);
    expect(status.got).toEqual({ kind: "run", status: "done", nextStep: 5 });
    expect(taskResultWords(status)).toBe('runTask returned { status: "done", nextStep: 5 }; expected { status: "paused", nextStep: 5 } after 4 of 10 steps');
    expect(taskResultOutcome(status)).toBe("runTask returned the wrong status");
    expect(taskResultOutcome(judged(ran("paused", "5", task.expected.outputs[4]!), 4))).toBe("runTask returned the wrong nextStep");
    const state = judged(ran("done", 11, task.expected.outputs[9]!), 10);
    expect(taskResultWords(state)).toBe('runTask returned status "done" with the state after step 9; expected the state after step 10 (the final state)');
    expect(taskResultOutcome(state)).toBe("runTask returned another step's state instead of the state after its last step");
    expect(taskResultOutcome(judged(ran("done", 11, null), 10))).toBe("runTask returned no state instead of the state after its last step");
  });

  test("a call that threw or returned no run is told as the call, with the run expected; the picture says its lead", () => {
    const threw = judged({ status: "threw", error: { name: "Error", code: "EEXIST", message: "file exists", notImplemented: false } }, 10);
    expect(taskResultWords(threw)).toBe('runTask threw Error (EEXIST): file exists; expected it to return { status: "done", nextStep: 11 }');
    expect(taskResultSays(threw)).toBe("runTask threw Error (EEXIST)");
    const nothing = judged({ status: "returned", value: { preview: "undefined", digest: null, isNull: false } }, 3);
    expect(taskResultWords(nothing)).toBe('runTask returned undefined; expected { status: "paused", nextStep: 4 }');
  });
});

describe("a chain of crashed runs and the run after it, as data", () => {
  const effect = (step: number, phase: "enter" | "done") => ({ kind: "effect" as const, step, pid: 4002, phase, input: task.expected.inputs[step]!, ...(phase === "done" ? { output: task.expected.outputs[step] } : {}) });
  const mark = (label: string) => ({ kind: "mark" as const, label });
  const rename = { kind: "rename" as const, from: "@/work/t.tmp", to: "@/work/task-checkpoint.json", api: "renameSync" };
  /** A run of steps 1 to 3, a rename after each step's side effect: 0 call, then per step enter, done, rename. */
  const trace: Trace = { truncated: false, entries: [mark("call:runTask"), ...[1, 2, 3].flatMap((s) => [effect(s, "enter"), effect(s, "done"), rename]), mark("return:runTask")] };
  const run = { traceId: "t", trace, start: 0 };
  const killedAt = (at: number): Crash => ({ run, cut: { at } });
  const threw: CallResult = { status: "threw", error: { name: "Error", code: "EEXIST", message: "file exists", notImplemented: false } };

  test("each crashed run is a line: where it was killed in the task's steps and right after which call; a paused run says it returned paused", () => {
    const setting: TaskCrashes = { kind: "task-crashes", crashes: [{ ...killedAt(3), budget: 2, paused: true }, killedAt(4), { ...killedAt(9), budget: 3 }] };
    expect(taskCrashesWords(setting)).toBe([
      "Run 1 with maxSteps 2 ran 2 steps and returned paused.",
      "Run 2 (started on what run 1 left) was killed at the boundary after step 1 (right after renameSync(\"t.tmp\", \"task-checkpoint.json\")).",
      "Run 3 with maxSteps 3 (restarted on what the crash left) was killed after step 3's side effect, before the boundary after it (right after renameSync(\"t.tmp\", \"task-checkpoint.json\")).",
    ].join("\n"));
  });

  test("the story: the crashes, then the last run and what it found; its outcome is the judgement's", () => {
    const crashes = [killedAt(2)];
    const lastEffects = record([1, 3, 4, 5, 6, 7, 8, 9, 10], () => 2);
    const wrong = judgeRecovery(task, crashes, { status: "returned", value: { preview: "{}", digest: null, isNull: false, run: { status: "done", nextStep: 11, stateDigest: task.expected.outputs[10]! } } }, lastEffects);
    expect(wrong).toEqual({ kind: "record", unit: "run", went: { kind: "never-ran", step: 2, held: [1, 3, 4, 5, 6, 7, 8, 9, 10] } });
    const finding: Finding = { setting: { kind: "task-crashes", crashes }, when: { kind: "after-crashes", run: 2, newProcess: true }, wrong: wrong! };
    expect(storyOf(finding)).toBe("Run 1 was killed inside runStep(1), before its side effect (before it changed anything on disk).\nRun 2, a new process, then ran runTask to the end: step 2 never ran (the record holds steps 1, 3, 4, 5, 6, 7, 8, 9, 10).");
    expect(causeOf(finding)).toEqual({ outcome: "a step never ran" });
    expect(storyOf({ ...finding, when: { kind: "after-crashes", run: 2, newProcess: false } }).split("\n")[1]).toMatch(/^Run 2 then ran runTask to the end: /);
  });

  test("a last run that did not return is told as its call with the steps the record holds, never with a run expected; its error is the cause's", () => {
    const crashes = [killedAt(7)];
    const wrong = judgeRecovery(task, crashes, threw, [])!;
    expect(wrong).toMatchObject({ kind: "task-result", got: { kind: "call", held: [1, 2] } });
    expect(taskResultWords(wrong as TaskResultWrong)).toBe("runTask threw Error (EEXIST): file exists (the record holds steps 1, 2)");
    expect(taskResultSays(wrong as TaskResultWrong)).toBe("runTask threw Error (EEXIST)");
    expect(causeOf({ setting: { kind: "task-crashes", crashes }, when: { kind: "after-crashes", run: 2, newProcess: true }, wrong })).toEqual({ errors: [{ name: "Error", code: "EEXIST", message: "file exists" }], outcome: "runTask threw Error (EEXIST)" });
  });

  test("a crash in a step's window lets that step run once more, and only that step: the judgement counts it from where the crash fell", () => {
    const again = record([3, 4, 5, 6, 7, 8, 9, 10], () => 2);
    const done: CallResult = { status: "returned", value: { preview: "{}", digest: null, isNull: false, run: { status: "done", nextStep: 11, stateDigest: task.expected.outputs[10]! } } };
    // Run 1 did steps 1 to 3 before entry 9 (after step 3's side effect, before its checkpoint's rename) and step 3 again is allowed.
    expect(judgeRecovery(task, [killedAt(9)], done, again)).toBeNull();
    // At the boundary after step 3 (entry 10), it is not.
    expect(judgeRecovery(task, [killedAt(10)], done, again)).toEqual({ kind: "record", unit: "run", went: { kind: "ran-again", step: 3, runs: [1, 2], crashes: 0 } });
    // Once more, and no more: a third run of step 3 is one too many.
    expect(judgeRecovery(task, [killedAt(9)], done, [record([3], () => 2)[0]!, ...again])).toEqual({ kind: "record", unit: "run", went: { kind: "ran-again", step: 3, runs: [1, 2, 2], crashes: 1 } });
  });
});
