// A thrown error's summary (sandbox/runtime/target/call.ts: summarizeError) as every story tells
// it: the scenario's paths hidden, and each file name the message quotes spelt the way the crash
// stories spell it, so two grades of one submission tell one error in the same words.
import path from "node:path";
import { expect, test } from "vitest";
import { summarizeError } from "../../sandbox/runtime/target/call.js";

const ROOT = path.join("/", "scenario-root");

function enoent(name: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`ENOENT: no such file or directory, rename '${path.join(ROOT, "work", name)}' -> '${path.join(ROOT, "work", "checkpoint.json")}'`);
  e.code = "ENOENT";
  return e;
}

test("a quoted temp name's process id and random part are hidden inside the scenario, whatever their digits; other words and numbers are kept", () => {
  for (const name of ["checkpoint.json.4001.tmp", "checkpoint.json.4123.tmp", "checkpoint.json.a8k2m1.tmp"])
    expect(summarizeError(enoent(name), ROOT)).toMatchObject({ code: "ENOENT", message: "ENOENT: no such file or directory, rename 'checkpoint.json.*.tmp' -> 'checkpoint.json'" });
  expect(summarizeError(new Error("expected 12345 bytes in 'x.json'"), ROOT).message).toBe("expected 12345 bytes in 'x.json'");
});

test("outside a scenario (no root) the message is kept as thrown", () => {
  expect(summarizeError(enoent("checkpoint.json.4001.tmp")).message).toContain("checkpoint.json.4001.tmp");
});
