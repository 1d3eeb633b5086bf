// The crash engine sees every file-system call a target makes, whatever the import style, and a
// replayed trace rebuilds exactly the disk the real run left.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, onTestFinished, test } from "vitest";
import { crashCuts, tearPoints } from "../crash/cuts.js";
import { changesDisk } from "../crash/trace.js";
import { CompiledTarget } from "../sandbox/runtime/target/instance.js";
import { bundleTarget } from "../target/bundle.js";
import { ASYNC_BODY_MARKER } from "../target/esm-to-function.js";
import { scratchRecorder } from "./support/record.js";

const record = scratchRecorder();

describe.concurrent("recording", () => {
  test.each([
    ["named import from node:fs", `import { writeFileSync, renameSync } from "node:fs";`, "writeFileSync", "renameSync"],
    ["namespace import from fs", `import * as fs from "fs"; const { writeFileSync, renameSync } = fs;`, "writeFileSync", "renameSync"],
    ["default import from fs", `import fs from "fs"; const writeFileSync = fs.writeFileSync, renameSync = fs.renameSync;`, "writeFileSync", "renameSync"],
    ["require of node:fs", `const fs = require("node:fs"); const { writeFileSync, renameSync } = fs;`, "writeFileSync", "renameSync"],
  ])("%s", async (_name, imports) => {
    const { kinds, disk, replayedDisk } = await record(`${imports}
      export function run(dir: string) { writeFileSync(dir + "/a.tmp", "hello"); renameSync(dir + "/a.tmp", dir + "/a"); }`);
    expect(kinds).toEqual(["open:writeFileSync", "write:writeFileSync", "close:writeFileSync", "rename:renameSync"]);
    expect(replayedDisk).toEqual(disk);
    expect(disk).toEqual([{ path: "a", size: 5, preview: "hello" }]);
  });

  test("the descriptor API, writev, truncation, syncs, copies, appends, links and removals", async () => {
    const { kinds, disk, replayedDisk } = await record(`import fs from "node:fs";
      export function run(dir: string) {
        fs.mkdirSync(dir + "/sub/deeper", { recursive: true });
        const fd = fs.openSync(dir + "/sub/f", "w+");
        fs.writeSync(fd, Buffer.from("0123456789"), 2, 5, 0);
        fs.writevSync(fd, [Buffer.from("ab"), Buffer.from("cd")]);
        fs.ftruncateSync(fd, 7);
        fs.fsyncSync(fd); fs.fdatasyncSync(fd); fs.closeSync(fd);
        fs.appendFileSync(dir + "/sub/f", "!");
        fs.copyFileSync(dir + "/sub/f", dir + "/copy");
        fs.linkSync(dir + "/copy", dir + "/hard");
        fs.truncateSync(dir + "/hard", 3);
        fs.writeFileSync(dir + "/gone", "x"); fs.unlinkSync(dir + "/gone");
        fs.rmSync(dir + "/sub/deeper", { recursive: true });
        fs.readdirSync(dir);
      }`);
    expect(kinds).toEqual([
      "mkdir:mkdirSync", "mkdir:mkdirSync", "open:openSync", "write:writeSync", "write:writevSync", "ftruncate:ftruncateSync",
      "fsync:fsyncSync", "fsync:fdatasyncSync", "close:closeSync", "open:appendFileSync", "write:appendFileSync", "close:appendFileSync",
      "open:copyFileSync", "ftruncate:copyFileSync", "write:copyFileSync", "close:copyFileSync", "link:linkSync", "truncate:truncateSync",
      "open:writeFileSync", "write:writeFileSync", "close:writeFileSync", "unlink:unlinkSync", "rmdir:rmSync",
    ]);
    expect(replayedDisk).toEqual(disk);
    // A positioned write leaves the file offset at 0, so writev overwrites; ftruncate then pads with zeros.
    expect(disk.map((f) => `${f.path}=${JSON.stringify(f.preview)}`)).toEqual(['copy="abc"', 'hard="abc"', 'sub/f="abcd6\\u0000\\u0000!"']);
  });

  test("a callback fs.rename is recorded when it happens, after the call returned", async () => {
    const { trace } = await record(`import { writeFileSync, rename } from "fs";
      export function run(dir: string) { writeFileSync(dir + "/t", "1"); rename(dir + "/t", dir + "/c", () => {}); }`);
    const labels = trace.entries.map((e) => (e.kind === "mark" ? e.label : e.kind));
    expect(labels.indexOf("rename")).toBeGreaterThan(labels.indexOf("return:run"));
  });

  test("calls made by a library in node_modules (write-file-atomic) are recorded as that library's, the target's own calls as its own", async () => {
    const { kinds, disk, replayedDisk } = await record(`import writeFileAtomic from "write-file-atomic";
      import fs from "node:fs";
      export function run(dir: string) { writeFileAtomic.sync(dir + "/state.json", "{}"); fs.writeFileSync(dir + "/own.json", "{}"); }`);
    expect(kinds).toContain("rename:write-file-atomic's renameSync");
    expect(kinds.some((k) => k.startsWith("write:write-file-atomic's "))).toBe(true);
    expect(kinds.filter((k) => !k.includes("write-file-atomic's "))).toEqual(["open:writeFileSync", "write:writeFileSync", "close:writeFileSync"]);
    expect(replayedDisk).toEqual(disk);
  });
});

describe("crash cuts", () => {
  test("short writes are torn at every byte, long ones at the edges, pages and chosen fractions", () => {
    expect(tearPoints(4)).toEqual([1, 2, 3]);
    expect(tearPoints(1)).toEqual([]);
    expect(tearPoints(10_000, [0.3])).toEqual([1, 2, 512, 3000, 4096, 5000, 9998, 9999]);
  });

  test("one cut before, one after each change, and the tears of each write", () => {
    const trace = {
      truncated: false,
      entries: [
        { kind: "mark", label: "call:x" },
        { kind: "open", path: "@/work/t", flags: "w", fd: 1, api: "writeFileSync" },
        { kind: "write", fd: 1, bytes: new Uint8Array(3), position: null, api: "writeFileSync" },
        { kind: "close", fd: 1, api: "writeFileSync" },
        { kind: "rename", from: "@/work/t", to: "@/work/c", api: "renameSync" },
      ],
    } as const;
    expect(trace.entries.filter((e) => changesDisk(e as never)).length).toBe(3);
    expect(crashCuts(trace as never, 1, 5)).toEqual([{ at: 1 }, { at: 2 }, { at: 2, bytes: 1 }, { at: 2, bytes: 2 }, { at: 3 }, { at: 5 }]);
  });
});

describe("top-level await", () => {
  test("a require made with createRequire serves the sandbox's fs; a worker thread, cluster.fork and the Module class throw ERR_LAB_UNSUPPORTED", async () => {
    const scratch = await dir({ unsafeCleanup: true });
    onTestFinished(() => scratch.cleanup());
    const targetDir = scratch.path;
    fs.writeFileSync(
      path.join(targetDir, "doors.ts"),
      `import { createRequire, Module } from "node:module";
       import { Worker } from "node:worker_threads";
       import cluster from "node:cluster";
       const req = createRequire(import.meta.url);
       const refusal = (f: () => unknown) => { try { f(); return "ran"; } catch (e) { return (e as { code?: string }).code; } };
       export function run(dir: string) {
         (req("fs") as typeof import("fs")).writeFileSync(dir + "/a", "1");
         (req("node:fs") as typeof import("fs")).writeFileSync(dir + "/b", "2");
         return {
           worker: refusal(() => new Worker("require('fs').writeFileSync('c', '3')", { eval: true })),
           fork: refusal(() => cluster.fork()),
           module: refusal(() => new (Module as unknown as new () => { require(id: string): unknown })().require("fs")),
           aPackage: refusal(() => req("tmp-promise")),
         };
       }`,
    );
    const out = path.join(targetDir, "doors.cjs");
    expect((await bundleTarget({ targetDir, file: "doors.ts", outFile: out })).ok).toBe(true);
    const calls: string[] = [];
    const fakeFs = { ...fs, writeFileSync: (p: string, d: string) => calls.push(`${path.basename(p)}=${d}`) };
    const exports = new CompiledTarget(out, targetDir, path.join(targetDir, "doors.ts")).instantiate({ fs: fakeFs, provided: {}, pid: 5, random: 1 });
    const refused = (exports.run as (d: string) => Record<string, unknown>)(targetDir);
    expect(calls).toEqual(["a=1", "b=2"]);
    expect(refused).toEqual({ worker: "ERR_LAB_UNSUPPORTED", fork: "ERR_LAB_UNSUPPORTED", module: "ERR_LAB_UNSUPPORTED", aPackage: "ERR_LAB_UNSUPPORTED" });
    expect(fs.existsSync(path.join(targetDir, "c"))).toBe(false);
  });

  test("a module with top-level await has its exported functions for a call made before its await settles, renamed ones too, and an error of one names the student's line", async () => {
    const scratch = await dir({ unsafeCleanup: true });
    onTestFinished(() => scratch.cleanup());
    const targetDir = scratch.path;
    fs.writeFileSync(
      path.join(targetDir, "checkpoint.ts"),
      ["import fs from \"node:fs\";", "export function loadCheckpoint(p: string) {", "  if (!fs.existsSync(p)) throw new Error(\"none at \" + p);", "  return 1;", "}", "function save() {", "  return \"saved\";", "}", "export { save as atomicCheckpoint };", "await Promise.resolve();", ""].join("\n"),
    );
    const out = path.join(targetDir, "c.cjs");
    expect((await bundleTarget({ targetDir, file: "checkpoint.ts", outFile: out })).ok).toBe(true);
    expect(fs.readFileSync(out, "utf8").startsWith(ASYNC_BODY_MARKER)).toBe(true);
    const target = new CompiledTarget(out, targetDir, path.join(targetDir, "checkpoint.ts"));
    const exports = target.instantiate({ fs, provided: {}, pid: 5, random: 1 });
    expect(Object.keys(exports).sort()).toEqual(["atomicCheckpoint", "loadCheckpoint"]);
    expect((exports.atomicCheckpoint as () => string)()).toBe("saved");
    let thrown: unknown;
    try {
      (exports.loadCheckpoint as (p: string) => unknown)(path.join(targetDir, "absent"));
    } catch (error) {
      thrown = error;
    }
    expect(target.frames.of(thrown)).toEqual(["loadCheckpoint (checkpoint.ts:3:32)"]);
  });

  test("a target with top-level await runs as an async body, with every import style still served by the sandbox", async () => {
    const scratch = await dir({ unsafeCleanup: true });
    onTestFinished(() => scratch.cleanup());
    const targetDir = scratch.path;
    fs.writeFileSync(
      path.join(targetDir, "session.ts"),
      `import fs from "fs"; import * as nodePath from "node:path"; import { writeFileSync as write } from "node:fs";
       const dir = await Promise.resolve(process.env.TLA_DIR!);
       write(nodePath.join(dir, "a"), "1"); fs.writeFileSync(nodePath.join(dir, "b"), "2");
       export const seen = { pid: process.pid };`,
    );
    const out = path.join(targetDir, "s.cjs");
    const bundle = await bundleTarget({ targetDir, file: "session.ts", outFile: out });
    expect(bundle.ok).toBe(true);
    expect(fs.readFileSync(out, "utf8").startsWith(ASYNC_BODY_MARKER)).toBe(true);
    const calls: string[] = [];
    const fakeFs = { ...fs, writeFileSync: (p: string, d: string) => calls.push(`${path.basename(p)}=${d}`) };
    process.env.TLA_DIR = targetDir;
    const started = new CompiledTarget(out, targetDir, path.join(targetDir, "session.ts")).start({ fs: fakeFs, provided: {}, pid: 77, random: 1 });
    await started.done;
    expect(calls).toEqual(["a=1", "b=2"]);
    expect(started.exports.seen).toEqual({ pid: 77 });
  });
});
