// What a failure story tells is kept as data while the story is written, in the record of the
// check that tells it: the target's errors and what went wrong, which a verdict's cause holds
// (contract/verdict.ts) and the report and the class dashboard read instead of the story.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { checkLoad, checkWrite, describeResult } from "../grading/calls.js";
import { forget, judgedOutcome, nothingTold, recordingTold, toldOutcome } from "../grading/told.js";
import { judgeRecord, gradedTask, type Done } from "../checks/phase2/ledger.js";
import { DEFAULT_TASK } from "../rubric-task.js";
import type { CallResult } from "../sandbox/messages/scenario.js";

const threw = (message: string, { name = "Error", code }: { name?: string; code?: string } = {}): CallResult => ({ status: "threw", error: { name, message, ...(code ? { code } : {}), notImplemented: false } });
const returned = (preview: string, { isNull = false } = {}): CallResult => ({ status: "returned", value: { preview, digest: preview === "undefined" ? null : `d-${preview}`, isNull } });

describe("the errors a story tells", () => {
  test("a thrown error, an import that threw and a process.exit are recorded once each, in the order told; a return and a timeout are not", () => {
    const told = nothingTold();
    recordingTold(told, () => {
      describeResult("loadCheckpoint", threw("disk full", { code: "ENOSPC" }));
      describeResult("loadCheckpoint", returned("{}"));
      describeResult("atomicCheckpoint", { status: "exited", detail: "exited with code 3" });
      describeResult("loadCheckpoint", threw("disk full", { code: "ENOSPC" }));
      describeResult("loadCheckpoint", { status: "timed-out", detail: "did not return within 5 s" });
      describeResult("loadCheckpoint", { status: "import-failed", error: { name: "TypeError", message: "x is not a function", notImplemented: false } });
    });
    expect(told.errors).toEqual([
      { name: "Error", code: "ENOSPC", message: "disk full" },
      { name: "process.exit", message: "exited with code 3" },
      { name: "TypeError", message: "x is not a function" },
    ]);
  });

  test("each check's record holds only what its own stories told, however their awaits interleave; a story told outside any check is recorded nowhere", async () => {
    const a = nothingTold();
    const b = nothingTold();
    const tell = async (message: string) => {
      await sleep(5);
      describeResult("loadCheckpoint", threw(message));
      await sleep(5);
      describeResult("loadCheckpoint", threw(`${message} again`));
    };
    await Promise.all([recordingTold(a, () => tell("a")), recordingTold(b, () => tell("b"))]);
    describeResult("loadCheckpoint", threw("outside"));
    expect(a.errors.map((e) => e.message)).toEqual(["a", "a again"]);
    expect(b.errors.map((e) => e.message)).toEqual(["b", "b again"]);
    forget(a);
    expect(a).toEqual(nothingTold());
  });
});

describe("what went wrong, the same for every submission with the bug", () => {
  const outcomeOf = (tell: () => void) => {
    const told = nothingTold();
    recordingTold(told, tell);
    return judgedOutcome(told);
  };

  test("a call's outcome is the function, not its arguments, and what came back by kind, not by the data it held", () => {
    expect(outcomeOf(() => describeResult('atomicCheckpoint(path, {"step":2})', threw("exists", { code: "EEXIST" }), { call: "atomicCheckpoint" }))).toBe("atomicCheckpoint threw Error (EEXIST)");
    expect(outcomeOf(() => describeResult("loadCheckpoint", threw("Unexpected end of JSON input at position 12", { name: "SyntaxError" })))).toBe("loadCheckpoint threw SyntaxError");
    expect(outcomeOf(() => describeResult("runTask", threw("step 3 of 10 failed")))).toBe("runTask threw Error: step # of # failed");
    for (const [preview, shape] of [["null", "null"], ["undefined", "undefined"], ["{}", "{}"], ['{"a":1}', "{…}"], ["[1,2]", "[…]"], ['"x"', '"…"'], ["12", "#"], ["true", "true"]] as const) {
      expect(outcomeOf(() => describeResult("loadCheckpoint", returned(preview, { isNull: preview === "null" })))).toBe(`loadCheckpoint returned ${shape}`);
    }
  });

  test("the outcome told with what was expected instead is the failure's, whatever was told after it; with none, the last told", () => {
    expect(outcomeOf(() => {
      describeResult("atomicCheckpoint", threw("disk full", { code: "ENOSPC" }));
      checkLoad(returned("null", { isNull: true }), [{ label: "the old state", state: { a: 1 } }]);
      describeResult("atomicCheckpoint", threw("again", { code: "EIO" }));
    })).toBe("loadCheckpoint returned null");
    expect(outcomeOf(() => {
      describeResult("atomicCheckpoint", threw("disk full", { code: "ENOSPC" }));
      describeResult("loadCheckpoint", threw("bad", { name: "SyntaxError" }));
    })).toBe("loadCheckpoint threw SyntaxError");
    // A write that was to return and did not is judged, whatever was told after it (the disk-fault stories tell the fault last).
    expect(outcomeOf(() => {
      checkWrite(threw("exists", { code: "EEXIST" }), { a: 1 });
      describeResult("atomicCheckpoint", threw("disk full", { code: "ENOSPC" }));
    })).toBe("atomicCheckpoint threw Error (EEXIST)");
    expect(outcomeOf(() => undefined)).toBeUndefined();
  });

  test("a task record's judgement is told by kind: two records that break the rule at different steps and runs have one outcome", () => {
    const task = gradedTask(DEFAULT_TASK);
    const run = (steps: number[], runOf: (i: number) => number): Done[] => steps.map((step, i) => ({ step, input: task.expected.inputs[step]!, output: task.expected.outputs[step]!, run: runOf(i) }));
    const all = Array.from({ length: task.steps }, (_, i) => i + 1);
    const twiceAt = (s: number) => [...all.slice(0, s), s, ...all.slice(s)];
    const first = outcomeOf(() => judgeRecord(task, run(twiceAt(3), (i) => (i < 3 ? 1 : 2))));
    const second = outcomeOf(() => judgeRecord(task, run(twiceAt(7), (i) => (i < 7 ? 1 : 3))));
    expect(first).toBe("a step ran again with no crash between its side effect and its checkpoint");
    expect(second).toBe(first);
    expect(outcomeOf(() => judgeRecord(task, run(all.filter((s) => s !== 4), () => 1)))).toBe("a step never ran");
  });

  test("a story's words can change without changing its outcome: the outcome is told beside the words, not read from them", () => {
    const told = nothingTold();
    recordingTold(told, () => toldOutcome("a step never ran", { judged: true }));
    expect(judgedOutcome(told)).toBe("a step never ran");
  });
});
