// A target's error message names files (Node's "rename 'a' -> 'b'"): the sandbox hides only the
// scenario's paths in it, so that a story that knows whose process id a name holds can say so
// ("<pid of A>"); a story that hides the id (stale-temp's restarted process) spells each quoted
// name the way its crash story does (crash/names.ts: quotedNamesNormalised), and a concurrency
// failure's cause names whose pid a name holds as its story does (report/run-story.ts).
import path from "node:path";
import { expect, test } from "vitest";
import { normaliseName, quotedNamesNormalised } from "../../crash/names.js";
import { summarizeError } from "../../sandbox/runtime/target/call.js";
import { causeOf } from "../../grading/finding-cause.js";
import type { Finding, RunWent } from "../../contract/finding.js";
import { scrubPaths } from "../../sandbox/messages/paths.js";

const ROOT = path.join("/", "scenario-root");
const renameError = (name: string) => Object.assign(new Error(`ENOENT: no such file or directory, rename '${path.join(ROOT, "work", name)}' -> '${path.join(ROOT, "work", "checkpoint.json")}'`), { code: "ENOENT" });

test("a quoted temp name's process id and random part are hidden, whatever their digits; other words and numbers are kept", () => {
  for (const name of ["checkpoint.json.4001.tmp", "checkpoint.json.4123.tmp", "checkpoint.json.a8k2m1.tmp"])
    expect(quotedNamesNormalised(`rename '${name}' -> 'checkpoint.json'`)).toBe("rename 'checkpoint.json.*.tmp' -> 'checkpoint.json'");
  expect(quotedNamesNormalised("expected 12345 bytes in 'x.json'")).toBe("expected 12345 bytes in 'x.json'");
});

test("a temp name's base64url random part is hidden whole, dashes and all; words, digits and dashes are the student's, with the numbers hidden", () => {
  for (const random of ["j-Qx9_0aZb3k", "AbCdEfGhIjK", "x_y-z01234W6789"]) expect(normaliseName(`checkpoint.json.${random}.tmp`)).toBe("checkpoint.json.*.tmp");
  for (const words of ["in-progress", "previousState", "BackupCopy"]) expect(normaliseName(`checkpoint.json.${words}.tmp`)).toBe(`checkpoint.json.${words}.tmp`);
  expect(normaliseName(".checkpoint.json-4001-1-1765100000000.tmp")).toBe(".checkpoint.json-*-1-*.tmp");
  expect(normaliseName("task-checkpoint.json")).toBe("task-checkpoint.json");
  expect(normaliseName("checkpoint.json.Xk3_9aQ-2bLp")).toBe("checkpoint.json.*");
});

test("the sandbox's summary of an error hides the scenario's folders and keeps the names in it as thrown", () => {
  expect(summarizeError(renameError("checkpoint.json.tmp-30829-7e08eb2b"), ROOT)).toMatchObject({ code: "ENOENT", message: "ENOENT: no such file or directory, rename 'checkpoint.json.tmp-30829-7e08eb2b' -> 'checkpoint.json'" });
});

test("the scenario's paths and a temp name's random hex run are hidden, whether the run is digits alone, letters alone or both", () => {
  const at = (name: string) => scrubPaths(`openSync opens ${path.join(ROOT, "work", name)} (wx)`, ROOT);
  for (const random of ["493376207781", "3f9a1c2b7d4e", "deadbeefcafe"]) expect(at(`.checkpoint.json.31965.${random}.tmp`)).toBe("openSync opens .checkpoint.json.31965.*.tmp (wx)");
  expect(at("checkpoint.json.tmp")).toBe("openSync opens checkpoint.json.tmp (wx)");
  expect(scrubPaths(`wrote 24 bytes to ${path.join(ROOT, "tmp", "x.1a2b.tmp")} at ${ROOT}`, ROOT)).toBe("wrote 24 bytes to $TMPDIR/x.1a2b.tmp at <scenario>");
});

test("a concurrency failure's cause names a writer's process id in a temp name as its story does, so two grades' causes match", () => {
  const run = (pidOfA: number, went: RunWent): Finding => ({
    setting: { kind: "concurrent-writers", states: ['{"a":1}', '{"b":2}'], old: null, tried: { kind: "random" }, steps: [], readerChanged: [], pids: [pidOfA, 40002, 40003], clockMs: 0 },
    wrong: { kind: "run", afterStep: 0, went },
  });
  const cause = (pidOfA: number) => {
    const message = `ENOENT: no such file or directory, rename 'checkpoint.json.tmp-${pidOfA}-7e08eb2b' -> 'checkpoint.json'`;
    return causeOf(run(pidOfA, { kind: "writer-failed", writer: 0, ended: { kind: "call", result: { status: "threw", error: { name: "Error", code: "ENOENT", message, notImplemented: false } } } }));
  };
  expect(cause(30829).errors?.[0]?.message).toBe("ENOENT: no such file or directory, rename 'checkpoint.json.tmp-<pid\u00a0of\u00a0A>-*' -> 'checkpoint.json'");
  expect(cause(31977)).toEqual(cause(30829));
  expect(causeOf(run(30829, { kind: "reader-unfinished", final: false }))).toEqual({ outcome: "the reader did not finish its load" });
});
