// A sandbox host that goes silent is judged by what it is doing (sandbox/supervisor/watchdog.ts),
// not by how long the silence lasted: a loop under a call's time limit is left to that limit even
// when the limit is longer than the silence (a call tried again after a starved try has a longer
// one), a call blocked in a system call is stopped at the silence, and a loop no call's limit
// holds (a timer's) is stopped at the silence with a story of its own. callMs is 1 s here, so the
// silence is 7 s and a call's fourth try has 8 s.
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

test("the premise: a call's fourth try has a longer limit than the silence after which a host is judged", () => {
  expect(silenceMs(LIMITS)).toBe(7_000);
  expect(8 * LIMITS.callMs).toBeGreaterThan(silenceMs(LIMITS));
});

test.runIf(linux)("a call that sleeps through its first tries and then spins past the silence is stopped by its own limit: it did not return within 1 s", async () => {
  // Each try starts the call afresh: it sleeps 3.8 s (its tries of 1, 2 and 4 s used almost no
  // processor, so each is tried again with twice the time), then spins. Its try of 8 s spins from
  // 3.8 s on, still spinning when the 7 s of silence end: a host that only counted the silence
  // stopped it there, "stopped responding for 7 s".
  const outcome = await callOnce(`export function run() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_800); for (;;) {} }`);
  expect(outcome).not.toBeInstanceOf(SandboxFailure);
  expect(outcome).toMatchObject({ status: "timed-out", detail: "did not return within 1 s" });
}, 120_000);

test("a call blocked reading a pipe nobody writes is stopped at the silence: is a call blocked waiting for something", async () => {
  const outcome = await callOnce(`import fs from "node:fs";\nimport { execFileSync } from "node:child_process";\n` +
    `export function run(dir: string) { execFileSync("mkfifo", [dir + "/fifo"]); return fs.readFileSync(dir + "/fifo", "utf8"); }`);
  expect(outcome).toBeInstanceOf(SandboxFailure);
  const timer = linux ? "" : ", or did a timer left running never end";
  expect((outcome as SandboxFailure).message).toBe(`stopped responding for 7 s during run (is a call blocked waiting for something, such as a pipe, a lock or a child process${timer}?)`);
}, 120_000);

test("a timer that spins once the call has returned is stopped at the silence, told as code running outside any call's limit (Linux), as the blocked story elsewhere", async () => {
  // The first call's reply leaves before the timer runs: the second request is the one never answered.
  const outcome = await callOnce(`export function run() { setTimeout(() => { for (;;) {} }, 0); return 1; }`, { requests: 2 });
  expect(outcome).toBeInstanceOf(SandboxFailure);
  const message = (outcome as SandboxFailure).message;
  if (linux) expect(message).toBe("kept running for 7 s without answering, outside any call's time limit (did a timer or a callback left running never end?)");
  else expect(message).toMatch(/^stopped responding for 7 s \(.*did a timer left running never end\?\)$/);
}, 180_000);
