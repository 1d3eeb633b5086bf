// Each limit holds at the sandbox: an endless loop is stopped inside the call, a blocking system
// call and a real exit end the host (and a new one serves the next request), memory and file
// bombs fail inside the call, and an error names the student's own line.
import { describe, expect, test } from "vitest";
import { Sandbox, SandboxFailure } from "../sandbox/supervisor/host-client.js";
import { sandboxOver, scratchHost } from "./support/host.js";
import { DEFAULT_LIMITS, type Limits } from "../sandbox/messages/limits.js";
import type { CallResult } from "../sandbox/messages/scenario.js";
import { Recorder } from "../sandbox/interposition/recorder.js";

const host = scratchHost();

const LIMITS: Limits = { ...DEFAULT_LIMITS, callMs: 500, memoryMiB: 512, fileMiB: 2 };

/** A sandbox over a one-file target `t.ts` exporting `run(dir)`; `use` gets it and `call()` to run it. */
async function withTarget<T>(source: string, use: (call: () => Promise<CallResult[]>, box: Sandbox) => Promise<T>, limits = LIMITS): Promise<T> {
  const box = await sandboxOver(host, { module: "t", source, limits });
  const call = async () => (await box.run("t", { steps: [{ call: "run", args: [{ $path: "work" }] }, { call: "run", args: [{ $path: "work" }] }] })).results;
  try {
    return await use(call, box);
  } finally {
    await box.close();
  }
}

describe.concurrent("limits", () => {
  // How much processor time the stopped call used is call-limit.test.ts'; here, the host's side.
  test("an endless loop is stopped by its limit of processor time; the next call is not made, and the host lives on", async () => {
    await withTarget(`let n = 0;\nexport function run() { if (n++ === 0) for (;;) { try {} catch {} } return n; }`, async (call) => {
      const [first, second] = await call();
      expect(first).toMatchObject({ status: "timed-out", detail: "did not return within 0.5 s" });
      expect(second).toMatchObject({ status: "timed-out", skippedAfter: "run did not return within 0.5 s" });
      const again = await call();
      expect(again[0]!.status).toBe("timed-out"); // a fresh instance: n is 0 again, so it loops again
    });
  });

  test("a call that listens for SIGINT, which the sandbox uses to end a call at its limit, and then spins is still stopped by its limit", async () => {
    await withTarget(`export function run() { process.on("SIGINT", () => {}); for (;;) {} }`, async (call) => {
      const [first] = await call();
      expect(first).toMatchObject({ status: "timed-out", detail: "did not return within 0.5 s" });
    });
  });

  test("a call that sleeps past its limit without using a processor returns: its limit counts processor time", async () => {
    await withTarget(`export function run() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 800); return "slept"; }`, async (call) => {
      const [first] = await call();
      expect(first).toMatchObject({ status: "returned", value: { preview: '"slept"' } });
    });
  });

  test("a Buffer bomb fails inside the call, under the memory limit", async () => {
    await withTarget(`const keep: Buffer[] = [];\nexport function run() { for (;;) keep.push(Buffer.allocUnsafe(64 * 1024 * 1024).fill(1)); }`, async (call) => {
      const outcome = await call().catch((e: unknown) => e);
      if (outcome instanceof SandboxFailure) expect(outcome.message).toMatch(/^ran out of memory/);
      else expect((outcome as CallResult[])[0]).toMatchObject({ status: "threw", error: { name: "RangeError" } });
    }, { ...LIMITS, callMs: 20_000, memoryMiB: 256 });
  });

  test("a file written without end fails with EFBIG at the file-size limit", async () => {
    await withTarget(`import fs from "node:fs";\nexport function run(dir: string) { const fd = fs.openSync(dir + "/big", "w"); for (;;) fs.writeSync(fd, Buffer.alloc(65536)); }`, async (call) => {
      const [first] = await call();
      expect(first).toMatchObject({ status: "threw", error: { code: "EFBIG" } });
    });
  });

  test("a call blocked in a system call ends the host after the silence limit; a new host serves the next request", async () => {
    const source = `import fs from "node:fs";\nimport { execFileSync } from "node:child_process";\n` +
      `export function run(dir: string) { execFileSync("mkfifo", [dir + "/fifo"]); return fs.readFileSync(dir + "/fifo", "utf8"); }`;
    await withTarget(source, async (call, box) => {
      // The message names the silence limit as what ended the host (a wall-clock bound here
      // failed on a machine with a load average of 40, where the host took 24.6 s to be ended).
      const failure = await call().catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SandboxFailure);
      expect((failure as Error).message).toMatch(/^stopped responding for 6 s during run/);
      await expect(box.run("t", { steps: [] })).resolves.toMatchObject({ results: [] });
    });
  });

  test("the real process.exit ends the host, and the message says during which call", async () => {
    await withTarget(`export function run() { (globalThis as any).process.exit(3); }`, async (call, box) => {
      const failure = await call().catch((e: unknown) => e);
      expect((failure as Error).message).toMatch(/^exited with code 3 during run: /);
      await expect(box.run("t", { steps: [] })).resolves.toMatchObject({ results: [] });
    });
  });

  test("an endless loop of file-system calls is stopped, and a recording never grows past its limits", async () => {
    await withTarget(`import fs from "node:fs";\nexport function run(dir: string) { for (let i = 0; ; i++) fs.writeFileSync(dir + "/f" + (i % 8), "x".repeat(i % 4096)); }`, async (call) => {
      const [first] = await call();
      expect(first).toMatchObject({ status: "timed-out" });
    });
    const recorder = new Recorder("/nowhere", { limits: { entries: 10, bytes: 100 } });
    for (let i = 0; i < 50; i++) recorder.push({ kind: "write", fd: 1, bytes: Buffer.alloc(30), position: null, api: "writeSync" });
    expect(recorder.entries.length).toBe(3);
    expect(recorder.trace().truncated).toBe(true);
  });

  test("an error names the student's own line, not the grader's", async () => {
    await withTarget(`export function run(dir: string) {\n  return helper(dir);\n}\nfunction helper(dir: string) {\n  throw new Error("nope " + dir.length);\n}`, async (call) => {
      const [first] = await call();
      expect(first).toMatchObject({ status: "threw", error: { frames: ["helper (t.ts:5:9)", "run (t.ts:2:10)"] } });
    });
  });
});
