// One conformance case: its folder set up with Node's own fs, then its call made through `fs`
// (Node's own, or the recording one), to its end: a promise settled, a callback called, a stream closed.
import realFs from "node:fs";
import path from "node:path";
import type { Case, Data, WriteOptions } from "./cases.js";

const OLD = "old content";

/** What a case's folder holds before its call: made with Node's own fs, before anything is traced or recorded. */
export function setUp(c: Case, dir: string): void {
  realFs.mkdirSync(dir, { recursive: true });
  const file = (name: string, text = OLD) => realFs.writeFileSync(path.join(dir, name), text);
  switch (c.call) {
    case "copyFileSync":
    case "cpSync":
      file("src", "s".repeat(c.size));
      if (c.existing) file("dest");
      return;
    case "cpSync folder":
      // Modes a folder made 0o777 less the umask never has: the chmod that gives them is seen.
      realFs.mkdirSync(path.join(dir, "src/sub"), { recursive: true });
      realFs.chmodSync(path.join(dir, "src"), 0o700);
      realFs.chmodSync(path.join(dir, "src/sub"), 0o750);
      realFs.writeFileSync(path.join(dir, "src/key"), "k", { mode: 0o600 });
      realFs.writeFileSync(path.join(dir, "src/sub/x"), "x");
      if (c.existing) realFs.mkdirSync(path.join(dir, "dest"));
      if (c.existing) file("dest/key");
      return;
    case "mkdirSync":
      if (c.existingDepth > 0) realFs.mkdirSync(path.join(dir, ...["a", "b", "c"].slice(0, c.existingDepth)), { recursive: true });
      return;
    case "rmSync":
      if (c.what !== "tree") return file("f");
      realFs.mkdirSync(path.join(dir, "t/u"), { recursive: true });
      file("t/one");
      file("t/u/two");
      return;
    case "mkdtempSync":
      return;
    case "renameSync":
      file("from", "new");
      if (c.existing) file("to");
      return;
    default:
      if (!("existing" in c) || c.existing) file("f");
  }
}

/** The bytes or string a case writes. */
export function dataOf(d: Data, encoding?: string): string | Uint8Array {
  let text = textOf(d.text);
  // Text that the encoding can read, so that both sides write the same bytes.
  if (encoding === "hex") text = Buffer.from(text).toString("hex");
  if (encoding === "base64") text = Buffer.from(text).toString("base64");
  if (d.as === "string") return text;
  const bytes = Buffer.from(text);
  return d.as === "buffer" ? bytes : new Uint8Array(bytes);
}

function optionsOf(o: WriteOptions): unknown {
  if (o.form === "none") return undefined;
  if (o.form === "string") return o.encoding ?? "utf8";
  return defined({ encoding: o.encoding, flush: o.flush, flag: o.flag, mode: o.mode });
}

/** Options without the keys left undefined: Node refuses `{ force: undefined }` where it takes `{}`. */
function defined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/** Runs the call of `c` in `dir` through `fs`; resolves when it is over, with the error code it failed with, if any. */
export async function runCase(fs: typeof realFs, c: Case, dir: string): Promise<{ error?: string; made?: string }> {
  const at = (name: string) => path.join(dir, name);
  try {
    const made = await callOf(fs, c, at);
    return made ? { made: path.basename(made) } : {};
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

async function callOf(fs: typeof realFs, c: Case, at: (name: string) => string): Promise<string | void> {
  switch (c.call) {
    case "writeFileSync":
    case "appendFileSync":
    case "promises.writeFile":
    case "promises.appendFile":
    case "writeFile":
    case "appendFile": {
      const data = dataOf(c.data, c.options.encoding);
      const options = optionsOf(c.options);
      const fd = c.to === "fd" ? fs.openSync(at("f"), c.options.flag ?? "w") : undefined;
      try {
        await writeFileLike(fs, c.call, fd ?? at("f"), data, options);
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
      return;
    }
    case "FileHandle.writeFile": {
      const handle = await fs.promises.open(at("f"), c.openFlag);
      try {
        await handle.writeFile(dataOf(c.data, c.options.encoding), optionsOf(c.options) as never);
      } finally {
        await handle.close();
      }
      return;
    }
    case "copyFileSync":
      return fs.copyFileSync(at("src"), at("dest"), c.excl ? fs.constants.COPYFILE_EXCL : 0);
    case "cpSync":
      return fs.cpSync(at("src"), at("dest"), defined({ force: c.force, errorOnExist: c.errorOnExist }));
    case "cpSync folder":
      return fs.cpSync(at("src"), at("dest"), { recursive: true, ...(c.filtered ? { filter: () => true } : {}) });
    case "createWriteStream":
      return streamed(fs, at("f"), c);
    case "writeSync": {
      const fd = fs.openSync(at("f"), c.openFlag);
      try {
        const data = dataOf(c.data, c.encoding);
        if (typeof data === "string") fs.writeSync(fd, data, c.position, c.encoding);
        else fs.writeSync(fd, data, Math.min(c.offset ?? 0, data.byteLength), Math.max(0, data.byteLength - (c.offset ?? 0)), c.position);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
    case "writevSync": {
      const fd = fs.openSync(at("f"), c.openFlag);
      try {
        fs.writevSync(fd, Array.from({ length: c.parts }, (_, i) => Buffer.from(`part ${i};`)), c.position ?? undefined);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
    case "truncateSync":
      return fs.truncateSync(at("f"), c.length);
    case "ftruncateSync": {
      const fd = fs.openSync(at("f"), "r+");
      try {
        fs.ftruncateSync(fd, c.length);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
    case "mkdirSync":
      fs.mkdirSync(at(["a", "b", "c"].slice(0, c.depth).join("/")), defined({ recursive: true, mode: c.mode }));
      return;
    case "rmSync":
      return fs.rmSync(at({ file: "f", tree: "t", "under a file": "f/a" }[c.what]), defined({ recursive: c.what !== "file", force: c.force }));
    case "mkdtempSync":
      return fs.mkdtempSync(at("tmp-"));
    case "renameSync":
      return fs.renameSync(at("from"), at("to"));
    case "unlinkSync":
      return fs.unlinkSync(at("f"));
  }
}

function writeFileLike(fs: typeof realFs, call: string, file: string | number, data: string | Uint8Array, options: unknown): Promise<void> | void {
  switch (call) {
    case "writeFileSync":
      return fs.writeFileSync(file, data, options as never);
    case "appendFileSync":
      return fs.appendFileSync(file, data, options as never);
    case "promises.writeFile":
      return fs.promises.writeFile(file as never, data, options as never);
    case "promises.appendFile":
      return fs.promises.appendFile(file as never, data, options as never);
    default: {
      const fn = call === "writeFile" ? fs.writeFile : fs.appendFile;
      return new Promise((resolve, reject) => {
        const done = (error: unknown) => (error ? reject(error) : resolve());
        if (options === undefined) (fn as (...a: unknown[]) => void)(file, data, done);
        else (fn as (...a: unknown[]) => void)(file, data, options, done);
      });
    }
  }
}

function streamed(fs: typeof realFs, file: string, c: Extract<Case, { call: "createWriteStream" }>): Promise<void> {
  const options = defined({ flush: c.flush, flags: c.flags, start: c.start });
  return new Promise((resolve, reject) => {
    const stream = fs.createWriteStream(file, options);
    stream.on("error", reject);
    stream.on("close", () => resolve());
    for (const chunk of c.chunks) stream.write(dataOf(chunk));
    stream.end();
  });
}

/** The text of `data` as a string. */
function textOf(text: Data["text"]): string {
  if (text === "ascii") return "hello, checkpoint 0123456789abcdef";
  if (text === "accents") return "héllo ✓ wörld — ok";
  if (text === "empty") return "";
  return "0123456789abcdef".repeat(40 * 1024); // 640 KiB: more than one chunk of Node's promise writeFile
}
