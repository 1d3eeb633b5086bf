// Each entry point of the recording fs records what Node does: random calls of every form (writes,
// opens, copies, truncations, renames, links, rm, rmdir, mkdir; sync, promise, FileHandle and
// callback) return or throw as Node's own do; the trace replays to the disk Node left, modes too.
import nodeFs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { expect, test } from "vitest";
import { replay } from "../../crash/replay.js";
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
