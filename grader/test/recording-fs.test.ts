// The recording fs has a closed list of ways to change the disk: every function Node's fs and
// fs.promises export is classified (passed through as a read, recorded, or refused), and each way
// that changes the disk is seen, replays to the disk the real call left, or is refused by name.
import fs from "node:fs";
import { describe, expect, test } from "vitest";
import { FS_PROMISES_SURFACE, FS_SURFACE, treatmentOf } from "../sandbox/interposition/fs-surface.js";
import { cpSyncCopiesFolderNatively, cpSyncReplacesExclusively } from "../sandbox/interposition/node-quirks.js";
import { scratchRecorder } from "./support/record.js";

const record = scratchRecorder();

/** The exported functions of `module` that `table` does not classify. */
function unclassified(names: string[], table: Readonly<Record<string, unknown>>): string[] {
  return names.filter((name) => !(name in table));
}

const functionsOf = (module: object) => Object.keys(module).filter((k) => k !== "promises" && typeof (module as Record<string, unknown>)[k] === "function");

describe("the surface of fs", () => {
  test("every function this Node's fs and fs.promises export is classified", () => {
    expect(unclassified(functionsOf(fs), FS_SURFACE)).toEqual([]);
    expect(unclassified(functionsOf(fs.promises), FS_PROMISES_SURFACE)).toEqual([]);
  });

  test("a function a later Node adds is unclassified for the test and refused for a target", () => {
    const later = [...functionsOf(fs), "writeEverythingSync"];
    expect(unclassified(later, FS_SURFACE)).toEqual(["writeEverythingSync"]);
    expect(treatmentOf("writeEverythingSync")).toBe("refused");
    expect(treatmentOf("writeEverything", { promises: true })).toBe("refused");
  });

  test("no function whose name says it changes the disk is passed through as a read", () => {
    const writes = /write|append|copy|^cp|rename|unlink|^rm|mkdir|mkdtemp|link|trunc|chmod|chown|utimes|sync$|Sync$|^open$|^close|Stream/;
    const readsThatLookLikeWrites = Object.entries({ ...FS_SURFACE, ...FS_PROMISES_SURFACE })
      .filter(([name, t]) => t === "reads" && writes.test(name) && !/^(access|exists|fstat|lstat|stat|statfs|readdir|read|readv|readFile|readlink|realpath|opendir|glob)(Sync)?$/.test(name));
    expect(readsThatLookLikeWrites).toEqual([]);
  });
});

describe.concurrent("ways to change the disk beyond the primitives", () => {
  test("cpSync of a file over an existing one unlinks it and copies: open, write, close, each recorded", async () => {
    const { kinds, disk, replayedDisk } = await record(`import fs from "node:fs";
      export function run(dir: string) { fs.writeFileSync(dir + "/t", "new"); fs.writeFileSync(dir + "/c", "old"); fs.cpSync(dir + "/t", dir + "/c"); }`);
    // Node 22 and later copy onto the freed name as std::filesystem::copy_file does (node-quirks.ts).
    const copy = cpSyncReplacesExclusively() ? ["open:cpSync", "attr:cpSync"] : ["open:cpSync", "ftruncate:cpSync"];
    expect(kinds.slice(6)).toEqual(["unlink:cpSync", ...copy, "write:cpSync", "close:cpSync"]);
    expect(replayedDisk).toEqual(disk);
    expect(disk.find((f) => f.path === "c")?.preview).toBe("new");
  });

  test("cpSync of a folder with recursive makes its folders and copies its files", async () => {
    const { kinds, disk, replayedDisk } = await record(`import { cpSync, mkdirSync, writeFileSync } from "node:fs";
      export function run(dir: string) { mkdirSync(dir + "/a/b", { recursive: true }); writeFileSync(dir + "/a/b/f", "x"); cpSync(dir + "/a", dir + "/z", { recursive: true }); }`);
    // libuv's copy empties the file it opened; std::filesystem::copy_file opens it O_TRUNC with mode 0o200 and gives it its mode.
    const copy = cpSyncCopiesFolderNatively({ filtered: false }) ? ["open:cpSync", "attr:cpSync"] : ["open:cpSync", "ftruncate:cpSync"];
    expect(kinds.filter((k) => k.endsWith(":cpSync"))).toEqual(["mkdir:cpSync", "mkdir:cpSync", ...copy, "write:cpSync", "close:cpSync"]);
    expect(replayedDisk).toEqual(disk);
  });

  test("createWriteStream opens, writes and closes through recorded calls, each told as the stream's", async () => {
    const { kinds, disk, replayedDisk } = await record(`import fs from "node:fs";
      export function run(dir: string) { const s = fs.createWriteStream(dir + "/s"); s.write("he"); s.end("llo"); }`);
    expect(kinds[0]).toBe("open:createWriteStream");
    expect(kinds.some((k) => k.startsWith("write:"))).toBe(true);
    expect(new Set(kinds.map((k) => k.split(":")[1]))).toEqual(new Set(["createWriteStream"]));
    expect(kinds.at(-1)).toBe("close:createWriteStream");
    expect(disk).toEqual([{ path: "s", size: 5, preview: "hello" }]);
    expect(replayedDisk).toEqual(disk);
  });

  test("a FileHandle from fs.promises.open writes, syncs and closes through recorded calls, and fs.promises.writeFile takes it; each is told by the name it was called by", async () => {
    const { kinds, disk, replayedDisk } = await record(`import { open, writeFile, rename } from "node:fs/promises";
      export function run(dir: string) {
        void (async () => {
          const h = await open(dir + "/t", "w");
          await h.write("abc"); await writeFile(h, "def"); await h.sync(); await h.close();
          await rename(dir + "/t", dir + "/c");
        })();
      }`);
    expect(kinds).toEqual(["open:fs.promises.open", "write:FileHandle.write", "write:fs.promises.writeFile", "fsync:FileHandle.sync", "close:FileHandle.close", "rename:fs.promises.rename"]);
    expect(disk).toEqual([{ path: "c", size: 6, preview: "abcdef" }]);
    expect(replayedDisk).toEqual(disk);
  });

  test("chmod, chown and utimes are recorded as attribute changes with their arguments, and the trace replays", async () => {
    const { kinds, trace, disk, replayedDisk } = await record(`import fs from "node:fs";
      export function run(dir: string) {
        fs.writeFileSync(dir + "/f", "x"); fs.chmodSync(dir + "/f", 0o600);
        const st = fs.statSync(dir + "/f"); fs.chownSync(dir + "/f", st.uid, st.gid); fs.utimesSync(dir + "/f", new Date(0), 5);
        const fd = fs.openSync(dir + "/f", "r"); fs.fchmodSync(fd, 0o640); fs.closeSync(fd);
      }`);
    expect(kinds.filter((k) => k.startsWith("attr:"))).toEqual(["attr:chmodSync", "attr:chownSync", "attr:utimesSync", "attr:fchmodSync"]);
    expect(trace.entries.find((e) => e.kind === "attr" && e.call === "utimesSync")).toMatchObject({ args: [0, 5] });
    expect(trace.entries.find((e) => e.kind === "attr" && e.call === "chmodSync")).toMatchObject({ path: "@/work/f", args: [0o600] });
    expect(replayedDisk).toEqual(disk);
  });

  test("callback mkdtemp and writev are recorded, told by their own names", async () => {
    const { kinds } = await record(`import fs from "node:fs";
      export function run(dir: string) {
        fs.mkdtemp(dir + "/d-", (err, made) => { const fd = fs.openSync(made + "/f", "w"); fs.writev(fd, [Buffer.from("a"), Buffer.from("b")], () => fs.closeSync(fd)); });
      }`);
    expect(kinds).toEqual(["mkdir:mkdtemp", "open:openSync", "write:writev", "close:closeSync"]);
  });

  test("a program run asynchronously (spawn, exec, execFile, fork) is refused by name, and changes nothing", async () => {
    const { result, disk } = await record(`import { exec } from "node:child_process";
      export function run(dir: string) { exec("touch " + dir + "/x"); }`, { mustReturn: false });
    expect(result.status === "threw" && result.error).toMatchObject({ code: "ERR_LAB_UNSUPPORTED" });
    expect(result.status === "threw" && result.error.message).toMatch(/^child_process\.exec is not supported by the lab's grader: .* execFileSync, execSync or spawnSync/);
    expect(disk).toEqual([]);
  });

  test("readFileSync with a flag that creates the file is refused by name, and creates nothing", async () => {
    const { result, disk } = await record(`import fs from "node:fs";
      export function run(dir: string) { fs.readFileSync(dir + "/x", { flag: "w+" }); }`, { mustReturn: false });
    expect(result.status).toBe("threw");
    expect(result.status === "threw" && result.error).toMatchObject({ code: "ERR_LAB_UNSUPPORTED" });
    expect(result.status === "threw" && result.error.message).toMatch(/^readFileSync with the flag "w\+" is not supported by the lab's grader/);
    expect(disk).toEqual([]);
  });

  test("Node's disposable temp folders are refused; so is a FileHandle's readLines, by name, in the target", async () => {
    expect([treatmentOf("mkdtempDisposableSync"), treatmentOf("mkdtempDisposable", { promises: true })]).toEqual(["refused", "refused"]);
    const { disk } = await record(`import { open } from "node:fs/promises"; import { writeFileSync } from "node:fs";
      export function run(dir: string) { void open(dir + "/f", "w").then((h) => { try { (h as any).readLines(); } catch (e) { writeFileSync(dir + "/said", (e as Error).message); } }); }`);
    expect(disk.find((f) => f.path === "said")?.preview).toMatch(/^FileHandle\.readLines is not supported by the lab/);
  });
});
