// The one way the grader writes a file others may read meanwhile (bundles, verdicts, the cache,
// reports, gradebooks): whole, under a name of its own, then renamed.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, expect, test } from "vitest";
import { threadId } from "node:worker_threads";
import { writeWhole } from "../write-whole.js";

let scratch: { path: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true });
});
afterAll(() => scratch.cleanup());

test("a file written again is a new file: a reader holding the old one reads all of the old text, and no temp file is left", () => {
  const file = path.join(scratch.path, "bundle.js");
  writeWhole(file, "old text");
  const held = fs.openSync(file, "r");
  const before = fs.statSync(file).ino;
  writeWhole(file, "new");
  expect(fs.statSync(file).ino).not.toBe(before);
  expect(fs.readFileSync(held, "utf8")).toBe("old text");
  fs.closeSync(held);
  expect(fs.readFileSync(file, "utf8")).toBe("new");
  expect(fs.readdirSync(scratch.path).filter((n) => n.startsWith("bundle.js"))).toEqual(["bundle.js"]);
});

test("a link planted at the name is replaced, never followed: the file it points to keeps its text", () => {
  const victim = path.join(scratch.path, "victim");
  fs.writeFileSync(victim, "mine");
  const file = path.join(scratch.path, "report.json");
  fs.symlinkSync(victim, file);
  writeWhole(file, "{}");
  expect(fs.readFileSync(victim, "utf8")).toBe("mine");
  expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
  expect(fs.readFileSync(file, "utf8")).toBe("{}");
});

test("a link planted at its own temp name is removed, not written through", () => {
  const victim = path.join(scratch.path, "victim2");
  fs.writeFileSync(victim, "mine");
  const file = path.join(scratch.path, "entry.json");
  const own = `${file}.${process.pid}-${threadId}.tmp`;
  fs.symlinkSync(victim, own);
  writeWhole(file, "entry");
  expect(fs.existsSync(own)).toBe(false);
  expect(fs.readFileSync(victim, "utf8")).toBe("mine");
  expect(fs.readFileSync(file, "utf8")).toBe("entry");
});

test("with mode 0o600 the file is made readable by its owner alone, whatever the umask", () => {
  const file = path.join(scratch.path, "secret.js");
  writeWhole(file, "x", { mode: 0o600 });
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
});

test("with ifAbsent, a file is put in place only where none has the name: true the first time, false after, the first text kept, and no temp file left", () => {
  const file = path.join(scratch.path, "made-once");
  expect(writeWhole(file, "first", { ifAbsent: true })).toBe(true);
  expect(writeWhole(file, "second", { ifAbsent: true })).toBe(false);
  expect(fs.readFileSync(file, "utf8")).toBe("first");
  expect(fs.readdirSync(scratch.path).filter((n) => n.startsWith("made-once"))).toEqual(["made-once"]);
});
