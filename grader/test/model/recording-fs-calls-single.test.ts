// Single calls where the recording fs once did not do what Node does (rmdir, recursive mkdir,
// copies and their modes, mkdtemp, writes of data Node does not take, '..' after a link), each with
// Node's own result: the same results and errors, and a trace that replays to the disk Node left.
import nodeFs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { replay } from "../../crash/replay.js";
import { DiskFaults } from "../../sandbox/interposition/disk-faults.js";
import { cpSyncGivesFolderMode } from "../../sandbox/interposition/node-quirks.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { layScenario, listTree, recordingFs, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();

/**
 * Makes the calls `steps` gives with Node's fs in one folder and with the recording fs in a
 * scenario's work folder: what each call did (its result, or its error's code and message, the
 * folder written "<dir>"), the disk Node left, and the disk the recorded trace replays to.
 */
function bothWays(steps: (fs: typeof nodeFs, at: (rel: string) => string) => (() => unknown)[]) {
  const run = (fs: typeof nodeFs, dir: string) =>
    steps(fs, (rel) => path.join(dir, rel)).map((step) => {
      try {
        return `returned ${String(JSON.stringify(step())).replaceAll(dir, "<dir>")}`;
      } catch (error) {
        return `threw ${(error as NodeJS.ErrnoException).code} ${(error as Error).message.replaceAll(dir, "<dir>")}`;
      }
    });
  const nodeDir = scratch.fresh("node");
  const node = run(nodeFs, nodeDir);
  const root = layScenario(scratch.fresh("recorded"));
  const rec = new Recorder(root);
  const recorded = run(recordingFs(rec).fs, path.join(root, "work"));
  const copy = layScenario(scratch.fresh("replayed"));
  replay(rec.trace(), { at: rec.trace().entries.length }, copy);
  return { node, recorded, nodeDisk: listTree(nodeDir), replayedDisk: listTree(path.join(copy, "work")) };
}

test("rmdirSync with recursive of a file, or of a link to a folder, throws rmdir's ENOTDIR and removes nothing, as Node's does", () => {
  const r = bothWays((fs, at) => [
    () => fs.writeFileSync(at("f"), "x"),
    () => fs.mkdirSync(at("d")),
    () => fs.symlinkSync(at("d"), at("link")),
    () => fs.rmdirSync(at("f"), { recursive: true }),
    () => fs.rmdirSync(at("link"), { recursive: true }),
  ]);
  expect(r.node.slice(3)).toEqual(["threw ENOTDIR ENOTDIR: not a directory, rmdir '<dir>/f'", "threw ENOTDIR ENOTDIR: not a directory, rmdir '<dir>/link'"]);
  expect(r.recorded).toEqual(r.node);
  expect(Object.keys(r.nodeDisk)).toEqual(["d", "f", "link"]);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("rmdirSync with recursive of a missing path throws lstat's ENOENT, as Node's does", () => {
  const r = bothWays((fs, at) => [() => fs.rmdirSync(at("missing"), { recursive: true })]);
  expect(r.node).toEqual(["threw ENOENT ENOENT: no such file or directory, lstat '<dir>/missing'"]);
  expect(r.recorded).toEqual(r.node);
});

test("a recursive mkdirSync onto a file or a link to one throws EEXIST, below a file ENOTDIR, naming the path it was given, as Node's does", () => {
  const r = bothWays((fs, at) => [
    () => fs.writeFileSync(at("f"), "x"),
    () => fs.symlinkSync(at("f"), at("link")),
    () => fs.mkdirSync(at("f"), { recursive: true }),
    () => fs.mkdirSync(at("link"), { recursive: true }),
    () => fs.mkdirSync(at("f/a/b"), { recursive: true }),
  ]);
  expect(r.node.slice(2)).toEqual([
    "threw EEXIST EEXIST: file already exists, mkdir '<dir>/f'",
    "threw EEXIST EEXIST: file already exists, mkdir '<dir>/link'",
    "threw ENOTDIR ENOTDIR: not a directory, mkdir '<dir>/f/a/b'",
  ]);
  expect(r.recorded).toEqual(r.node);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("a recursive mkdirSync walks the path as it was given, as Node's does: through 'r/..' it makes r too, and returns r", () => {
  // Not through path.join, which would take "r/.." out.
  const r = bothWays((fs, at) => [() => fs.mkdirSync(`${at("r")}/../s/t`, { recursive: true })]);
  expect(r.node).toEqual(['returned "<dir>/r"']);
  expect(r.recorded).toEqual(r.node);
  expect(Object.keys(r.nodeDisk)).toEqual(["r", "s", "s/t"]);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("copyFileSync gives the copy the source's permission bits, to a new destination and to an existing one, as Node's does", () => {
  const r = bothWays((fs, at) => [
    () => fs.writeFileSync(at("secret"), "x", { mode: 0o600 }),
    () => fs.writeFileSync(at("tool"), "y", { mode: 0o755 }),
    () => fs.writeFileSync(at("existing"), "old"),
    () => fs.copyFileSync(at("secret"), at("copy")),
    () => fs.copyFileSync(at("secret"), at("existing")),
    () => fs.copyFileSync(at("tool"), at("tool copy")),
  ]);
  expect(r.nodeDisk).toMatchObject({ copy: 'file 600 "x"', existing: 'file 600 "x"', "tool copy": 'file 755 "y"' });
  expect(r.recorded).toEqual(r.node);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("copyFileSync of a folder throws copyfile's EISDIR and removes the file it was copied onto, as Node's does; with COPYFILE_EXCL, EEXIST and the file stays", () => {
  const r = bothWays((fs, at) => [
    () => fs.mkdirSync(at("d")),
    () => fs.writeFileSync(at("f"), "x"),
    () => fs.writeFileSync(at("kept"), "x"),
    () => fs.copyFileSync(at("d"), at("f")),
    () => fs.copyFileSync(at("d"), at("new")),
    () => fs.copyFileSync(at("d"), at("kept"), fs.constants.COPYFILE_EXCL),
  ]);
  expect(r.node.slice(3)).toEqual([
    "threw EISDIR EISDIR: illegal operation on a directory, copyfile '<dir>/d' -> '<dir>/f'",
    "threw EISDIR EISDIR: illegal operation on a directory, copyfile '<dir>/d' -> '<dir>/new'",
    "threw EEXIST EEXIST: file already exists, copyfile '<dir>/d' -> '<dir>/kept'",
  ]);
  expect(r.recorded).toEqual(r.node);
  expect(Object.keys(r.nodeDisk)).toEqual(["d", "kept"]);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test.each([false, true])("cpSync gives a folder it makes, and the files in it, their sources' permission bits where node-quirks.ts says it does, as Node's does (filter: %s)", (filtered) => {
  const filter = filtered ? { filter: () => true } : {};
  const r = bothWays((fs, at) => [
    () => fs.mkdirSync(at("private"), { mode: 0o700 }),
    () => fs.writeFileSync(at("private/key"), "k", { mode: 0o600 }),
    () => fs.mkdirSync(at("copy")),
    () => fs.writeFileSync(at("copy/key"), "old key"),
    () => fs.cpSync(at("private"), at("copy/inner"), { recursive: true, ...filter }),
    () => fs.cpSync(at("private"), at("copy"), { recursive: true, ...filter }),
  ]);
  const folderMode = cpSyncGivesFolderMode({ filtered }) ? "700" : (0o777 & ~process.umask()).toString(8);
  expect(r.nodeDisk).toMatchObject({ "copy/inner": `dir ${folderMode}`, "copy/inner/key": 'file 600 "k"', "copy/key": 'file 600 "k"' });
  expect(r.recorded).toEqual(r.node);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("mkdtempSync's folder replays with the mode Node makes it with (0o700)", () => {
  const root = layScenario(scratch.fresh("mkdtemp"));
  const rec = new Recorder(root);
  const made = recordingFs(rec).fs.mkdtempSync(path.join(root, "work", "t-"));
  const copy = layScenario(scratch.fresh("replayed"));
  replay(rec.trace(), { at: rec.trace().entries.length }, copy);
  expect(nodeFs.statSync(made).mode & 0o777).toBe(0o700);
  expect(nodeFs.statSync(path.join(copy, path.relative(root, made))).mode & 0o777).toBe(0o700);
});

test("writeSync and write of a hex string of odd length throw ERR_INVALID_ARG_VALUE as they are called, and write nothing, as Node's do", () => {
  const r = bothWays((fs, at) => {
    let fd = -1;
    return [
      () => void (fd = fs.openSync(at("f"), "w")),
      () => fs.writeSync(fd, "a", null, "hex"),
      () => fs.write(fd, "abc", null, "hex", () => {}),
      () => fs.closeSync(fd),
    ];
  });
  const error = "threw ERR_INVALID_ARG_VALUE The argument 'encoding' is invalid for data of length";
  expect(r.node).toEqual(["returned undefined", `${error} 1. Received 'hex'`, `${error} 3. Received 'hex'`, "returned undefined"]);
  expect(r.recorded).toEqual(r.node);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("copyFileSync onto a full disk throws copyfile's ENOSPC and removes the part it copied, as libuv does, and the trace replays to that", () => {
  const root = layScenario(scratch.fresh("full"));
  const rec = new Recorder(root);
  const fs = recordingFs(rec).fs;
  const at = (rel: string) => path.join(root, "work", rel);
  fs.writeFileSync(at("a"), "0123456789");
  rec.faults = new DiskFaults({ kind: "disk-full", on: "write", index: 0, bytes: 4 });
  expect(() => fs.copyFileSync(at("a"), at("b"))).toThrow(`ENOSPC: no space left on device, copyfile '${at("a")}' -> '${at("b")}'`);
  const copy = layScenario(scratch.fresh("replayed"));
  replay(rec.trace(), { at: rec.trace().entries.length }, copy);
  expect(Object.keys(listTree(at("")))).toEqual(["a"]);
  expect(listTree(path.join(copy, "work"))).toEqual(listTree(at("")));
});

test("a path that goes up ('..') after a symbolic link goes up from where the link leads, as the kernel's lookup does, and replays there", () => {
  const r = bothWays((fs, at) => [
    () => fs.mkdirSync(at("d/a"), { recursive: true }),
    () => fs.symlinkSync("d/a", at("link")),
    // Joined by hand: path.join would clean "link/.." away as text before any call is made.
    () => fs.writeFileSync(`${at("link")}/../f`, "x"),
    () => fs.renameSync(`${at("link")}/../f`, `${at("link")}/../g`),
  ]);
  expect(Object.keys(r.nodeDisk).sort()).toEqual(["d", "d/a", "d/g", "link"]);
  expect(r.recorded).toEqual(r.node);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("writes of data Node does not take (a number, an object, an unknown encoding) throw or fall back as Node's do, and a mode given as octal digits makes the same folder", () => {
  const r = bothWays((fs, at) => {
    let fd = -1;
    return [
      () => (fd = fs.openSync(at("a"), "w", "600" as unknown as number)) && undefined,
      () => fs.writeSync(fd, 5 as unknown as string),
      () => fs.writeSync(fd, { a: 1 } as unknown as string),
      () => fs.writeSync(fd, "x", null, "bogus" as BufferEncoding),
      () => fs.closeSync(fd),
      () => fs.writeFileSync(at("b"), 5 as unknown as string),
      () => fs.writeFileSync(at("b"), "x", "bogus" as BufferEncoding),
      () => fs.appendFileSync(at("b"), null as unknown as string),
      () => fs.mkdirSync(at("m"), "700" as unknown as number),
      () => fs.mkdirSync(at("n/o"), { recursive: true, mode: "750" as unknown as number }),
      () => fs.copyFileSync(at("a"), at("clone"), nodeFs.constants.COPYFILE_FICLONE_FORCE),
    ];
  });
  expect(r.node.slice(1, 3).map((s) => s.split(" ").slice(0, 2).join(" "))).toEqual(["threw ERR_INVALID_ARG_TYPE", "threw ERR_INVALID_ARG_TYPE"]);
  expect(r.node[3]).toBe("returned 1");
  expect(r.recorded).toEqual(r.node);
  expect(r.replayedDisk).toEqual(r.nodeDisk);
});

test("mkdtempSync is killed before its folder is there: a kill at its one change to the disk leaves no folder, and otherwise it returns the name as Node's does (a Buffer when asked)", () => {
  const root = layScenario(scratch.fresh("mkdtemp-kill"));
  class Killed extends Error {}
  const killing = new Recorder(root, { beforeOp: (op) => {
    if (op.kind === "mkdir") throw new Killed();
  } });
  expect(() => recordingFs(killing).fs.mkdtempSync(path.join(root, "work", "t-"))).toThrow(Killed);
  expect(nodeFs.readdirSync(path.join(root, "work"))).toEqual([]);
  const made = recordingFs(new Recorder(root)).fs.mkdtempSync(path.join(root, "work", "t-"), "buffer") as unknown as Buffer;
  expect(Buffer.isBuffer(made)).toBe(true);
  expect(path.basename(made.toString())).toMatch(/^t-[A-Za-z0-9]{6}$/);
  expect(nodeFs.statSync(made).isDirectory()).toBe(true);
});
