// Small words of the stories, each true: a JSON.parse position said to count characters (the
// grader's own stories count bytes); the count of steps a long story leaves out.
import { describe, expect, test } from "vitest";
import { elideSteps } from "../checks/concurrency/world-of.js";
import { describeResult } from "../grading/calls.js";
import { summarizeValue } from "../sandbox/runtime/target/call.js";

describe("a call's outcome in words", () => {
  test("a SyntaxError at a JSON position says that position counts characters, not bytes; other errors say nothing of it", () => {
    const atPosition = describeResult("loadCheckpoint", { status: "threw", error: { name: "SyntaxError", message: "Unexpected token ] in JSON at position 41669", notImplemented: false } });
    expect(atPosition).toBe("loadCheckpoint threw SyntaxError: Unexpected token ] in JSON at position 41669 (JSON.parse counts that position in characters, not bytes)");
    const atEnd = describeResult("loadCheckpoint", { status: "threw", error: { name: "SyntaxError", message: "Unexpected end of JSON input", notImplemented: false } });
    expect(atEnd).toBe("loadCheckpoint threw SyntaxError: Unexpected end of JSON input");
    const other = describeResult("loadCheckpoint", { status: "threw", error: { name: "Error", message: "bad position 3 of the queue", code: "EFOO", notImplemented: false } });
    expect(other).toBe("loadCheckpoint threw Error (EFOO): bad position 3 of the queue");
  });
});

describe("a long list of steps", () => {
  test("leaves out the steps between the first 4 and the last 20, and counts exactly those; never leaves out just one", () => {
    const steps = (n: number) => Array.from({ length: n }, (_, i) => `  ${i + 1}. A: step`);
    expect(elideSteps(steps(24))).toEqual(steps(24));
    expect(elideSteps(steps(25))).toEqual(steps(25));
    const shown = elideSteps(steps(30));
    expect(shown).toHaveLength(25);
    expect(shown[4]).toBe("  … 6 more …");
    expect([shown[3], shown[5]]).toEqual(["  4. A: step", "  11. A: step"]);
  });
});

describe("a returned value", () => {
  test("is previewed with its keys in the order the code gave them, and digested the same whatever that order", () => {
    const a = summarizeValue({ step: 1, paths: [] });
    const b = summarizeValue({ paths: [], step: 1 });
    expect([a.preview, b.preview]).toEqual(['{"step":1,"paths":[]}', '{"paths":[],"step":1}']);
    expect(a.digest).toBe(b.digest);
  });
});
