// How a call's outcome is told: an error with its name, code and place; a JSON.parse position
// said to count characters, since the grader's own stories count bytes.
import { describe, expect, test } from "vitest";
import { describeResult } from "../grading/calls.js";

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
