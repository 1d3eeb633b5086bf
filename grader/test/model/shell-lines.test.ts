// Shell lines of several programs, run for real through the sandbox's child_process: the line runs
// with a probe between its programs (sandbox/interposition/external/probed-line.ts), and its
// recorded operations are told step by step. They replay into the folder the real programs left,
// every crash state inside them rebuilds, and a crash between two programs leaves what the first
// one left, even where a later program changed the same path again. A line told without probes
// (its shell string not read, or its probes failed) is told from the folder before and after it
// alone: it still replays into the folder the programs left.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { crashCuts } from "../../crash/cuts.js";
import { replay } from "../../crash/replay.js";
import type { Trace } from "../../crash/model.js";
import { externalOps, snapshot } from "../../sandbox/interposition/external-ops.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { createRecordingChildProcess } from "../../sandbox/interposition/recording-exec.js";
import { layScenario, listTree, propertyTest, scratchFolder, type Listing } from "../support/model-fs.js";

const scratch = scratchFolder();

/** A scenario folder whose work/ holds `files`. */
function lay(files: Record<string, string>): string {
  const root = layScenario(scratch.fresh("s"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, "work", name)), { recursive: true });
    fs.writeFileSync(path.join(root, "work", name), text);
  }
  return root;
}

const listing = (root: string): Listing => listTree(root, { links: true, modes: false, root });

/** Runs `line` in the work folder of a scenario holding `files`, recorded; a program's failure is part of the line. */
function record(line: string, files: Record<string, string>): { root: string; trace: Trace } {
  const root = lay(files);
  const rec = new Recorder(root);
  try {
    createRecordingChildProcess(() => rec).execSync(line, { cwd: path.join(root, "work"), stdio: "pipe" });
  } catch (error) {
    if (/could not be told/.test(String(error))) throw error;
  }
  return { root, trace: rec.trace() };
}

/** The index of the last of `ops` that `match` holds for, or -1. */
const lastIndex = (ops: string[], match: (op: string) => boolean) => ops.map(match).lastIndexOf(true);

/** The folder the trace rebuilds over `files` at `cut` (its end by default). */
function replayed(files: Record<string, string>, trace: Trace, cut = { at: trace.entries.length } as { at: number; bytes?: number }): Listing {
  const copy = lay(files);
  replay(trace, cut, copy);
  return listing(copy);
}

/** Every crash state of the trace, as listed. */
const statesOf = (files: Record<string, string>, trace: Trace) => crashCuts(trace, 0, trace.entries.length).map((cut) => replayed(files, trace, cut));

/** The command's operations as "kind path" lines, paths relative to work/. */
function opsOf(trace: Trace): string[] {
  const name = (p: string) => p.replace(/^@\/work\//, "");
  return trace.entries.flatMap((e) => {
    if (e.kind === "mark" || e.kind === "effect") return [];
    if (e.kind === "rename" || e.kind === "link") return [`${e.kind} ${name(e.from)} ${name(e.to)}`];
    return ["path" in e && e.path !== undefined ? `${e.kind} ${name(e.path)}` : e.kind];
  });
}

const AB = { a: "A", b: "B" };

/** What the random lines with folders start from: two files, and a folder with a file in it. */
const START = { a: "A", b: "B", "d/x": "X" };
const FILE_PROGRAMS = ["rm -f a", "rm -f b", "ln -sf b a", "ln -sf a b", "mkdir -p a", "mkdir -p d && mv a d/", "mv -f a b", "cp b a", "cat a > b", "ln -f b a", "sed -i s/A/x/ a", "sync"];
const FOLDER_PROGRAMS = ["rm -rf d", "mv -T d e", "cp -r d e", "ln -sfn d l", "mv -f l a", "cp a d/x", "touch a"];
const lineOf = (programs: string[], most: number) =>
  fc.tuple(fc.array(fc.constantFrom(...programs), { minLength: 1, maxLength: most }), fc.constantFrom(" ; ", " && ", " | cat ; ")).map(([parts, join]) => parts.join(join));

propertyTest(
  "any shell line of rm, ln -s, mkdir, mv, cp, cat, ln, sed -i and sync replays to the folder the real programs left, and every crash state inside it rebuilds",
  [lineOf(FILE_PROGRAMS, 3)],
  (line) => {
    const { root, trace } = record(line, AB);
    expect(replayed(AB, trace)).toEqual(listing(root));
    statesOf(AB, trace);
  },
  60,
);

propertyTest(
  "so does any shell line that also removes, renames, copies and links to folders",
  [lineOf([...FILE_PROGRAMS, ...FOLDER_PROGRAMS], 4)],
  (line) => {
    const { root, trace } = record(line, START);
    expect(replayed(START, trace)).toEqual(listing(root));
    statesOf(START, trace);
  },
  30,
);

test("cp checkpoint.json backup && mkdir -p old && mv checkpoint.json old/ is a copy, a folder made, then one rename into it", () => {
  const files = { "checkpoint.json": "{}" };
  const { root, trace } = record("cp checkpoint.json backup && mkdir -p old && mv checkpoint.json old/", files);
  expect(opsOf(trace)).toEqual(["open backup", "write", "close", "mkdir old", "rename checkpoint.json old/checkpoint.json"]);
  expect(replayed(files, trace)).toEqual(listing(root));
});

test("rm a && ln -s b a removes a, then makes a the link to b", () => {
  const { root, trace } = record("rm a && ln -s b a", AB);
  expect(opsOf(trace)).toEqual(["unlink a", "symlink a"]);
  expect(replayed(AB, trace)).toEqual(listing(root));
  expect(listing(root)["work/a"]).toBe("link -> b");
});

test("rm a && mkdir a removes the file, then makes the folder", () => {
  const { root, trace } = record("rm a && mkdir a", AB);
  expect(opsOf(trace)).toEqual(["unlink a", "mkdir a"]);
  expect(replayed(AB, trace)).toEqual(listing(root));
});

test("mv a c && ln -s c a renames a's file to c, then makes a the link to it: a crash never loses the file", () => {
  const { root, trace } = record("mv a c && ln -s c a", AB);
  expect(opsOf(trace)).toEqual(["rename a c", "symlink a"]);
  expect(replayed(AB, trace)).toEqual(listing(root));
  for (const state of statesOf(AB, trace)) expect([state["work/a"], state["work/c"]]).toContain('file "A"');
});

test("ln -sf b a over a file puts the link in place through ln's temporary name: a crash leaves a the file or the link, never missing", () => {
  const { root, trace } = record("ln -sf b a", AB);
  expect(opsOf(trace)).toEqual(["symlink CuXXXXXX", "rename CuXXXXXX a"]);
  expect(new Set(statesOf(AB, trace).map((s) => s["work/a"]))).toEqual(new Set(['file "A"', "link -> b"]));
  expect(replayed(AB, trace)).toEqual(listing(root));
});

for (const line of ["sed -i s/A/x/ a && sync", "ln -f b a && sync", "sed -i s/A/x/ a b && sync"]) {
  test(`${line}: the sync after the rename fsyncs what is there, never the temporary name`, () => {
    const { root, trace } = record(line, AB);
    const ops = opsOf(trace);
    const lastRename = lastIndex(ops, (o) => o.startsWith("rename"));
    expect(lastRename).toBeGreaterThan(0);
    expect(ops.slice(lastRename + 1)).toContain("fsync");
    expect(ops.slice(lastRename + 1).filter((o) => o.includes("XXXXXX"))).toEqual([]);
    expect(replayed(AB, trace)).toEqual(listing(root));
  });
}

test("two sed -i in one line each replace their file through sed's temporary name and a rename", () => {
  const { root, trace } = record("sed -i s/A/x/ a && sed -i s/B/y/ b", AB);
  expect(opsOf(trace)).toEqual(["open sedXXXXXX", "write", "close", "rename sedXXXXXX a", "open sedXXXXXX", "write", "close", "rename sedXXXXXX b"]);
  expect(replayed(AB, trace)).toEqual(listing(root));
});

test("a crash between two programs that write one file leaves what the first one wrote: cp a c && cp b c", () => {
  const files = { a: "first", b: "second" };
  const { root, trace } = record("cp a c && cp b c", files);
  const states = new Set(statesOf(files, trace).map((s) => s["work/c"]));
  const prefixes = (text: string) => Array.from({ length: text.length + 1 }, (_, n) => `file ${JSON.stringify(text.slice(0, n))}`);
  expect(states).toEqual(new Set([undefined, ...prefixes("first"), ...prefixes("second")]));
  expect(replayed(files, trace)).toEqual(listing(root));
});

for (const line of ["git init --quiet && git add -A", "git init --quiet && git add -A && git commit --quiet -m one"]) {
  test(`every crash state of \`${line}\` rebuilds, the last one the repository git left`, () => {
    const files = { a: "A" };
    const { root, trace } = record(line, files);
    statesOf(files, trace);
    expect(replayed(files, trace)).toEqual(listing(root));
  });
}

test("git commit && sync: the sync comes after git's operations and makes them durable", () => {
  const files = { a: "A" };
  const { root, trace } = record("git init --quiet && git add -A && git commit --quiet -m one && sync", files);
  const ops = opsOf(trace);
  const gitsLast = lastIndex(ops, (o) => /^(rename|unlink) \.git\/index\.lock/.test(o));
  expect(gitsLast).toBeGreaterThan(0);
  expect(ops.indexOf("fsync")).toBeGreaterThan(gitsLast);
  expect(replayed(files, trace)).toEqual(listing(root));
});

propertyTest(
  "a line told without probes, from the folder before and after it alone, replays into the folder the real programs left, and every crash state inside it rebuilds",
  [lineOf([...FILE_PROGRAMS, ...FOLDER_PROGRAMS], 5)],
  (line) => {
    const root = lay(START);
    const before = snapshot(root, { digests: true });
    try {
      execSync(line, { cwd: path.join(root, "work"), stdio: "pipe" });
    } catch {}
    let fd = 0;
    const ops = externalOps(root, before, snapshot(root, { digests: true }), `exec:${line}`, () => ++fd, { script: line, cwd: path.join(root, "work") });
    const trace: Trace = { entries: [{ kind: "mark", label: `exec:${line}` }, ...ops], truncated: false };
    expect(replayed(START, trace)).toEqual(listing(root));
    statesOf(START, trace);
  },
  100,
);
