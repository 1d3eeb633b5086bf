// The target's errors a failure story tells are kept as data while the story is written, in the
// record of the check that tells it: what a verdict's cause holds (contract/verdict.ts).
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import type { TargetError } from "../contract/verdict.js";
import { describeResult } from "../grading/calls.js";
import { recordingToldErrors } from "../grading/told-errors.js";
import type { CallResult } from "../sandbox/messages/scenario.js";

const threw = (message: string, code?: string): CallResult => ({ status: "threw", error: { name: "Error", message, ...(code ? { code } : {}), notImplemented: false } });

describe("the errors a story tells", () => {
  test("a thrown error, an import that threw and a process.exit are recorded once each, in the order told; a return and a timeout are not", () => {
    const errors: TargetError[] = [];
    recordingToldErrors(errors, () => {
      describeResult("loadCheckpoint", threw("disk full", "ENOSPC"));
      describeResult("loadCheckpoint", { status: "returned", value: { preview: "{}", digest: "d" } } as CallResult);
      describeResult("atomicCheckpoint", { status: "exited", detail: "exited with code 3" } as CallResult);
      describeResult("loadCheckpoint", threw("disk full", "ENOSPC"));
      describeResult("loadCheckpoint", { status: "timed-out", detail: "did not return within 5 s" } as CallResult);
      describeResult("loadCheckpoint", { status: "import-failed", error: { name: "TypeError", message: "x is not a function", notImplemented: false } } as CallResult);
    });
    expect(errors).toEqual([
      { name: "Error", code: "ENOSPC", message: "disk full" },
      { name: "process.exit", message: "exited with code 3" },
      { name: "TypeError", message: "x is not a function" },
    ]);
  });

  test("each check's record holds only what its own stories told, however their awaits interleave; a story told outside any check is recorded nowhere", async () => {
    const a: TargetError[] = [];
    const b: TargetError[] = [];
    const tell = async (message: string) => {
      await sleep(5);
      describeResult("loadCheckpoint", threw(message));
      await sleep(5);
      describeResult("loadCheckpoint", threw(`${message} again`));
    };
    await Promise.all([recordingToldErrors(a, () => tell("a")), recordingToldErrors(b, () => tell("b"))]);
    describeResult("loadCheckpoint", threw("outside"));
    expect(a.map((e) => e.message)).toEqual(["a", "a again"]);
    expect(b.map((e) => e.message)).toEqual(["b", "b again"]);
  });
});
