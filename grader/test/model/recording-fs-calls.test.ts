// Each entry point of the recording fs records what Node does: the same random calls are made with
// Node's own fs in one folder and with the recording fs in a scenario's work folder; each call
// returns or throws alike, and the disk the recorded trace replays to is the disk Node left, modes
// included: every form of writeSync, writeFileSync and appendFileSync with a path or a descriptor,
// string, Buffer and URL paths, string and numeric open flags, files made with other modes,
// copyFileSync (of folders too), truncateSync and ftruncateSync, rm, rmdir and mkdir (recursive
// too, onto files and links), links, and the promise, FileHandle and callback forms of them. Then
// single calls where the recording fs once did not do what Node does, each with Node's own result.
import nodeFs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { expect, test } from "vitest";
import { replay } from "../../crash/replay.js";
import { DiskFaults } from "../../sandbox/interposition/disk-faults.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { layScenario, listTree, propertyTest, recordingFs, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();
const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_EXCL } = nodeFs.constants;

const NAMES = ["a", "b", "d/a", "d"] as const;
const name = fc.constantFrom(...NAMES);
const pathForm = fc.constantFrom("string" as const, "buffer" as const, "url" as const);
const slot = fc.integer({ min: 0, max: 1 });
const text = fc.string({ unit: fc.constantFrom("a", "f", "0", "é", "\n"), maxLength: 6 });
const data = fc.oneof(
  text.map((t) => ({ form: "string" as const, t })),
  text.map((t) => ({ form: "buffer" as const, t })),
  text.map((t) => ({ form: "uint8array" as const, t })),
);
const flags = fc.constantFrom<string | number>("w", "wx", "a", "r+", "w+", "a+", "ax", "r", O_WRONLY | O_CREAT | O_TRUNC, O_RDWR | O_CREAT, O_WRONLY | O_APPEND | O_CREAT, O_WRONLY | O_CREAT | O_EXCL);
const wholeOptions = fc.constantFrom<unknown>(undefined, "utf8", "latin1", { encoding: "hex" }, { encoding: "base64" }, { flag: "a" }, { flag: "wx" }, { flag: "r+" }, { flag: "w", flush: true }, { mode: 0o600 }, { flag: "a", mode: 0o755 });
const position = fc.option(fc.integer({ min: 0, max: 8 }), { nil: null });
const length = fc.integer({ min: 0, max: 8 });

/** One call, as data. */
const call = fc.oneof(
  fc.record({ kind: fc.constant("openSync" as const), slot, file: name, flags, form: pathForm }),
  fc.record({ kind: fc.constant("fs.open" as const), slot, file: name, flags }),
  fc.record({ kind: fc.constant("promises.open" as const), slot, file: name, flags }),
  fc.record({ kind: fc.constant("closeSync" as const), slot }),
  fc.record({ kind: fc.constant("writeSync buffer" as const), slot, data, offset: fc.integer({ min: 0, max: 2 }), cut: fc.integer({ min: 0, max: 2 }), position, shape: fc.constantFrom("fd,buf", "fd,buf,off", "fd,buf,off,len", "fd,buf,off,len,pos", "fd,buf,{…}") }),
  fc.record({ kind: fc.constant("writeSync string" as const), slot, t: text, position, encoding: fc.constantFrom(undefined, "utf8", "latin1", "base64", "hex") }),
  fc.record({ kind: fc.constant("writevSync" as const), slot, parts: fc.array(text, { maxLength: 3 }), position }),
  fc.record({ kind: fc.constant("fs.write" as const), slot, t: text, position }),
  fc.record({ kind: fc.constant("handle.write" as const), slot, data, position }),
  fc.record({ kind: fc.constant("handle.writeFile" as const), slot, t: text }),
  fc.record({ kind: fc.constant("handle.truncate" as const), slot, length }),
  fc.record({ kind: fc.constant("handle.sync" as const), slot }),
  fc.record({ kind: fc.constant("writeFileSync" as const), file: name, form: pathForm, data, options: wholeOptions }),
  fc.record({ kind: fc.constant("writeFileSync fd" as const), slot, data }),
  fc.record({ kind: fc.constant("appendFileSync" as const), file: name, form: pathForm, data }),
  fc.record({ kind: fc.constant("appendFileSync fd" as const), slot, data }),
  fc.record({ kind: fc.constant("promises.writeFile" as const), file: name, data, options: wholeOptions }),
  fc.record({ kind: fc.constant("fs.appendFile" as const), file: name, t: text }),
  fc.record({ kind: fc.constant("fs.writeFile" as const), file: name, t: text }),
  fc.record({ kind: fc.constant("copyFileSync" as const), from: name, to: name, excl: fc.boolean() }),
  fc.record({ kind: fc.constant("promises.copyFile" as const), from: name, to: name }),
  fc.record({ kind: fc.constant("truncateSync" as const), file: name, length }),
  fc.record({ kind: fc.constant("ftruncateSync" as const), slot, length }),
  fc.record({ kind: fc.constant("fs.truncate" as const), file: name, length }),
  fc.record({ kind: fc.constant("fsyncSync" as const), slot, data: fc.boolean() }),
  fc.record({ kind: fc.constant("renameSync" as const), from: name, to: name, form: pathForm }),
  fc.record({ kind: fc.constant("promises.rename" as const), from: name, to: name }),
  fc.record({ kind: fc.constant("unlinkSync" as const), file: name }),
  fc.record({ kind: fc.constant("linkSync" as const), from: name, to: name }),
  fc.record({ kind: fc.constant("symlinkSync" as const), target: name, file: name, absolute: fc.boolean() }),
  fc.record({ kind: fc.constant("mkdirSync" as const), recursive: fc.boolean(), folder: fc.constantFrom("d", "d/a/e", "b/e") }),
  fc.record({ kind: fc.constant("fs.mkdir" as const), recursive: fc.boolean() }),
  fc.record({ kind: fc.constant("rmdirSync" as const), recursive: fc.boolean() }),
  fc.record({ kind: fc.constant("rmSync" as const), file: name, recursive: fc.boolean(), force: fc.boolean() }),
  fc.record({ kind: fc.constant("promises.rm" as const), file: name, recursive: fc.boolean(), force: fc.boolean() }),
);
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

/** An fs, the folder its calls work in, and the descriptors and FileHandles they opened, by slot. */
interface Side {
  fs: typeof nodeFs;
  dir: string;
  fds: Map<number, number>;
  handles: Map<number, nodeFs.promises.FileHandle>;
}

const bytesOf = (d: { form: string; t: string }) => (d.form === "string" ? d.t : d.form === "buffer" ? Buffer.from(d.t) : new Uint8Array(Buffer.from(d.t)));
const promised = <T>(start: (cb: (error: unknown, value?: T) => void) => void) => new Promise<T>((resolve, reject) => start((e, v) => (e ? reject(e) : resolve(v as T))));

/** writeSync(fd, buffer, { offset, length, position }): Node's form that its typings here do not know. */
type WriteWithOptions = (fd: number, buffer: Uint8Array, options: { offset?: number; length?: number; position?: number | null }) => number;

/** Makes `c` on one side; what it gives back (a number, or a path made relative to the side's folder), or "skipped". */
async function make(side: Side, c: Call): Promise<unknown> {
  const { fs, dir, fds, handles } = side;
  const at = (rel: string, form: "string" | "buffer" | "url" = "string") => {
    const abs = path.join(dir, rel);
    return form === "buffer" ? Buffer.from(abs) : form === "url" ? pathToFileURL(abs) : abs;
  };
  const fd = "slot" in c ? fds.get(c.slot) : undefined;
  const handle = "slot" in c ? handles.get(c.slot) : undefined;
  switch (c.kind) {
    case "openSync":
      if (fds.has(c.slot)) return "skipped";
      fds.set(c.slot, fs.openSync(at(c.file, c.form), c.flags));
      return;
    case "fs.open":
      if (fds.has(c.slot)) return "skipped";
      fds.set(c.slot, await promised<number>((cb) => fs.open(at(c.file) as string, c.flags, cb)));
      return;
    case "promises.open":
      if (handles.has(c.slot)) return "skipped";
      handles.set(c.slot, await fs.promises.open(at(c.file) as string, c.flags));
      return;
    case "closeSync":
      if (fd === undefined) return "skipped";
      fds.delete(c.slot);
      return fs.closeSync(fd);
    case "writeSync buffer": {
      if (fd === undefined) return "skipped";
      const buf = bytesOf(c.data.form === "string" ? { ...c.data, form: "buffer" } : c.data) as Uint8Array;
      const offset = Math.min(c.offset, buf.byteLength);
      const len = Math.max(0, buf.byteLength - offset - c.cut);
      switch (c.shape) {
        case "fd,buf": return fs.writeSync(fd, buf);
        case "fd,buf,off": return fs.writeSync(fd, buf, offset);
        case "fd,buf,off,len": return fs.writeSync(fd, buf, offset, len);
        case "fd,buf,off,len,pos": return fs.writeSync(fd, buf, offset, len, c.position);
        default: return (fs.writeSync as unknown as WriteWithOptions)(fd, buf, { offset, length: len, position: c.position });
      }
    }
    case "writeSync string":
      if (fd === undefined) return "skipped";
      return c.encoding === undefined ? fs.writeSync(fd, c.t, c.position) : fs.writeSync(fd, c.t, c.position, c.encoding as BufferEncoding);
    case "writevSync":
      if (fd === undefined) return "skipped";
      return fs.writevSync(fd, c.parts.map((p) => Buffer.from(p)), c.position ?? undefined);
    case "fs.write":
      if (fd === undefined) return "skipped";
      return promised<number>((cb) => (c.position === null ? fs.write(fd, c.t, cb) : fs.write(fd, c.t, c.position, cb)));
    case "handle.write": {
      if (!handle) return "skipped";
      const d = bytesOf(c.data);
      const written = typeof d === "string" ? await handle.write(d, c.position) : await handle.write(d, 0, d.byteLength, c.position);
      return written.bytesWritten;
    }
    case "handle.writeFile":
      return handle ? handle.writeFile(c.t) : "skipped";
    case "handle.truncate":
      return handle ? handle.truncate(c.length) : "skipped";
    case "handle.sync":
      return handle ? handle.sync() : "skipped";
    case "writeFileSync":
      return fs.writeFileSync(at(c.file, c.form), bytesOf(c.data), c.options as nodeFs.WriteFileOptions);
    case "writeFileSync fd":
      return fd === undefined ? "skipped" : fs.writeFileSync(fd, bytesOf(c.data));
    case "appendFileSync":
      return fs.appendFileSync(at(c.file, c.form), bytesOf(c.data));
    case "appendFileSync fd":
      return fd === undefined ? "skipped" : fs.appendFileSync(fd, bytesOf(c.data));
    case "promises.writeFile":
      return fs.promises.writeFile(at(c.file) as string, bytesOf(c.data), c.options as nodeFs.WriteFileOptions);
    case "fs.appendFile":
      return promised((cb) => fs.appendFile(at(c.file) as string, c.t, cb));
    case "fs.writeFile":
      return promised((cb) => fs.writeFile(at(c.file) as string, c.t, cb));
    case "copyFileSync":
      return fs.copyFileSync(at(c.from), at(c.to), c.excl ? fs.constants.COPYFILE_EXCL : 0);
    case "promises.copyFile":
      return fs.promises.copyFile(at(c.from) as string, at(c.to) as string);
    case "truncateSync":
      return fs.truncateSync(at(c.file) as string, c.length);
    case "ftruncateSync":
      return fd === undefined ? "skipped" : fs.ftruncateSync(fd, c.length);
    case "fs.truncate":
      return promised((cb) => fs.truncate(at(c.file) as string, c.length, cb));
    case "fsyncSync":
      return fd === undefined ? "skipped" : c.data ? fs.fdatasyncSync(fd) : fs.fsyncSync(fd);
    case "renameSync":
      return fs.renameSync(at(c.from, c.form), at(c.to, c.form));
    case "promises.rename":
      return fs.promises.rename(at(c.from) as string, at(c.to) as string);
    case "unlinkSync":
      return fs.unlinkSync(at(c.file));
    case "linkSync":
      return fs.linkSync(at(c.from), at(c.to));
    case "symlinkSync":
      return fs.symlinkSync(c.absolute ? (at(c.target) as string) : path.relative(path.dirname(at(c.file) as string), at(c.target) as string), at(c.file));
    case "mkdirSync": {
      const made = fs.mkdirSync(at(c.folder), { recursive: c.recursive });
      return made === undefined ? undefined : path.relative(dir, made);
    }
    case "fs.mkdir":
      return promised((cb) => fs.mkdir(at("d") as string, { recursive: c.recursive }, (e) => cb(e)));
    case "rmdirSync":
      return c.recursive ? fs.rmdirSync(at("d"), { recursive: true }) : fs.rmdirSync(at("d"));
    case "rmSync":
      return fs.rmSync(at(c.file), { recursive: c.recursive, force: c.force });
    case "promises.rm":
      return fs.promises.rm(at(c.file) as string, { recursive: c.recursive, force: c.force });
  }
}

/** What a call did, to compare the two sides: its result, or the code of the error it threw. */
async function outcome(side: Side, c: Call): Promise<string> {
  try {
    return `returned ${JSON.stringify(await make(side, c))}`;
  } catch (error) {
    return `threw ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}

async function closeAll(side: Side): Promise<void> {
  for (const fd of side.fds.values()) side.fs.closeSync(fd);
  for (const h of side.handles.values()) await h.close();
}

propertyTest(
  "each call returns or throws as Node's own does, and the recorded trace replays to the disk Node's own calls leave in another folder",
  [fc.array(call, { minLength: 1, maxLength: 14 })],
  async (calls) => {
    const node: Side = { fs: nodeFs, dir: scratch.fresh("node"), fds: new Map(), handles: new Map() };
    const root = layScenario(scratch.fresh("recorded"));
    const rec = new Recorder(root);
    const recorded: Side = { fs: recordingFs(rec).fs, dir: path.join(root, "work"), fds: new Map(), handles: new Map() };
    for (const [i, c] of calls.entries()) {
      const [mine, theirs] = [await outcome(recorded, c), await outcome(node, c)];
      expect(mine, `call ${i}: ${JSON.stringify(c)}`).toBe(theirs);
    }
    await closeAll(node);
    await closeAll(recorded);
    const copy = layScenario(scratch.fresh("replayed"));
    replay(rec.trace(), { at: rec.trace().entries.length }, copy);
    const nodeDisk = listTree(node.dir, { links: true, root: node.dir });
    expect(listTree(recorded.dir, { links: true, root: recorded.dir })).toEqual(nodeDisk);
    expect(listTree(path.join(copy, "work"), { links: true, root: path.join(copy, "work") })).toEqual(nodeDisk);
  },
  150,
);

test("writeSync's forms record the bytes and position Node writes: a slice of a buffer at a position, a string in an encoding at a position", () => {
  const root = layScenario(scratch.fresh("forms"));
  const rec = new Recorder(root);
  const fs = recordingFs(rec).fs;
  const fd = fs.openSync(path.join(root, "work/f"), "w");
  fs.writeSync(fd, Buffer.from("0123456789"), 2, 3, 4);
  (fs.writeSync as unknown as WriteWithOptions)(fd, Buffer.from("abcdef"), { offset: 1, length: 2 });
  fs.writeSync(fd, "c3a9", 1, "hex");
  fs.writeSync(fd, "é");
  fs.closeSync(fd);
  const writes = rec.trace().entries.flatMap((e) => (e.kind === "write" ? [`${Buffer.from(e.bytes).toString("hex")}@${e.position}`] : []));
  expect(writes).toEqual(["323334@4", "6263@null", "c3a9@1", "c3a9@null"]);
  expect(nodeFs.readFileSync(path.join(root, "work/f"))).toEqual(Buffer.from([0x62, 0xc3, 0xc3, 0xa9, 0x32, 0x33, 0x34]));
});

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

test("cpSync gives a folder it makes, and the files in it, their sources' permission bits, as Node's does", () => {
  const r = bothWays((fs, at) => [
    () => fs.mkdirSync(at("private"), { mode: 0o700 }),
    () => fs.writeFileSync(at("private/key"), "k", { mode: 0o600 }),
    () => fs.cpSync(at("private"), at("copy"), { recursive: true }),
  ]);
  expect(r.nodeDisk).toMatchObject({ copy: "dir 700", "copy/key": 'file 600 "k"' });
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
