// A sandbox host that goes silent is judged by what it is doing (sandbox/supervisor/watchdog.ts),
// not by how long the silence lasted: a loop under a call's time limit is left to that limit, a
// call blocked in a system call is stopped at the silence, and a loop no call's limit holds (a
// timer's) is stopped once it has used the silence in processor time, with a story of its own.
// callMs is 1 s here, so the silence is 7 s.
import { expect, test } from "vitest";
import { SandboxFailure } from "../sandbox/supervisor/host-client.js";
import { sandboxOver, scratchHost } from "./support/host.js";
import { silenceMs } from "../sandbox/supervisor/limits.js";
import { DEFAULT_LIMITS, type Limits } from "../sandbox/messages/limits.js";
import type { CallResult } from "../sandbox/messages/scenario.js";

const linux = process.platform === "linux";
const LIMITS: Limits = { ...DEFAULT_LIMITS, callMs: 1_000 };

const host = scratchHost();

/**
 * What a call of `run(dir)` in a one-file target `t.ts` did, or the SandboxFailure that ended its
 * host; with `requests`, the last of that many calls, each asked for on its own.
 */
async function callOnce(source: string, { requests = 1 }: { requests?: number } = {}): Promise<CallResult | SandboxFailure> {
  const box = await sandboxOver(host, { module: "t", source, limits: LIMITS });
  try {
    let result: CallResult | undefined;
    for (let i = 0; i < requests; i++) result = (await box.run("t", { steps: [{ call: "run", args: [{ $path: "work" }] }] })).results[0];
    return result!;
  } catch (error) {
    if (error instanceof SandboxFailure) return error;
    throw error;
  } finally {
    await box.close();
  }
}

test("the premise: the silence after which a host is judged is 7 s", () => {
  expect(silenceMs(LIMITS)).toBe(7_000);
});

test("a call that sleeps 3.8 s and then spins is stopped by its own limit once it has spun for 1 s of processor time: it did not return within 1 s", async () => {
  const started = performance.now();
  const outcome = await callOnce(`export function run() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_800); for (;;) {} }`);
  expect(outcome).not.toBeInstanceOf(SandboxFailure);
  expect(outcome).toMatchObject({ status: "timed-out", detail: "did not return within 1 s" });
  // A limit of the wall clock's would have stopped it asleep, after 1 s.
  expect(performance.now() - started).toBeGreaterThanOrEqual(4_700);
}, 120_000);

test("a call blocked reading a pipe nobody writes is stopped at the silence: is a call blocked waiting for something", async () => {
  const outcome = await callOnce(`import fs from "node:fs";\nimport { execFileSync } from "node:child_process";\n` +
    `export function run(dir: string) { execFileSync("mkfifo", [dir + "/fifo"]); return fs.readFileSync(dir + "/fifo", "utf8"); }`);
  expect(outcome).toBeInstanceOf(SandboxFailure);
  const timer = linux ? "" : ", or did a timer left running never end";
  expect((outcome as SandboxFailure).message).toBe(`stopped responding for 7 s during run (is a call blocked waiting for something, such as a pipe, a lock or a child process${timer}?)`);
}, 120_000);

test("a timer that spins once the call has returned is stopped once it has used the silence in processor time, told as code running outside any call's limit (Linux), as the blocked story elsewhere", async () => {
  // The first call's reply leaves before the timer runs: the second request is the one never answered.
  const outcome = await callOnce(`export function run() { setTimeout(() => { for (;;) {} }, 0); return 1; }`, { requests: 2 });
  expect(outcome).toBeInstanceOf(SandboxFailure);
  const message = (outcome as SandboxFailure).message;
  if (linux) expect(message).toBe("kept running for 7 s without answering, outside any call's time limit (did a timer or a callback left running never end?)");
  else expect(message).toMatch(/^stopped responding for 7 s \(.*did a timer left running never end\?\)$/);
}, 180_000);
