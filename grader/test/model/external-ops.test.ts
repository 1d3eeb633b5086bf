// A command's recorded operations (sandbox/external-ops.ts and sandbox/external/: the folder
// listed before and after, the changes between, the order of the programs, the system calls that
// make them) turn the folder before into the folder after, for random changes made by a program
// the grader does not know and for the programs it does (mv, cp, ln, sed -i, dd, sync, rm, mkdir,
// cat, shell lines of them, git); each one can be applied after the one before it, so every cut
// inside a command rebuilds; and a crash inside mv, ln -f or sed -i never leaves the
// destination missing or half written, inside cp or dd onto an existing file only a prefix.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { commandSpans } from "../../crash/commands.js";
import { crashCuts } from "../../crash/cuts.js";
import { replay } from "../../crash/replay.js";
import type { Trace } from "../../crash/model.js";
import { externalOps, snapshot } from "../../sandbox/interposition/external-ops.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { createRecordingChildProcess } from "../../sandbox/interposition/recording-exec.js";
import { layScenario, listTree, propertyTest, scratchFolder, type Listing } from "../support/model-fs.js";

const scratch = scratchFolder();

/** The files of a work folder before a command: path (relative to work/) to content. */
type Folder = Record<string, string>;

const NAMES = ["a", "b", "c", "d/a", "d/b"] as const;
const content = fc.string({ unit: fc.constantFrom("a", "b", "x", "1", "\n"), minLength: 0, maxLength: 12 });
const folders: fc.Arbitrary<Folder> = fc.dictionary(fc.constantFrom(...NAMES), content, { minKeys: 1, maxKeys: 5 });

/** A scenario folder whose work/ holds `files`. */
function lay(files: Folder): string {
  const root = layScenario(scratch.fresh("scenario"));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, "work", rel)), { recursive: true });
    fs.writeFileSync(path.join(root, "work", rel), text);
  }
  return root;
}

/** The listing every state of a command is judged by: contents, links, hard links; no modes (a program may set its own). */
const listing = (root: string): Listing => listTree(root, { links: true, modes: false, root });

/** Replays `trace` up to `at` (the whole of it by default) over a fresh folder holding `files`, and lists it. */
function replayedOver(files: Folder, trace: Trace, cut: { at: number; bytes?: number } = { at: trace.entries.length }): Listing {
  const copy = lay(files);
  replay(trace, cut, copy);
  return listing(copy);
}

/** Every cut of `trace` a process crash can land on. */
const cutsOf = (trace: Trace) => crashCuts(trace, 0, trace.entries.length);

describe("a program the grader does not know", () => {
  /** A change a program makes, applied with Node's fs. */
  type Change =
    | { kind: "rename"; from: string; to: string }
    | { kind: "rewrite"; path: string; text: string }
    | { kind: "replace"; path: string; text: string }
    | { kind: "remove"; path: string }
    | { kind: "link"; from: string; to: string }
    | { kind: "symlink"; target: string; path: string }
    | { kind: "mkdir"; path: string }
    | { kind: "removeFolder"; path: string };
  const name = fc.constantFrom(...NAMES, "e/a", "e", "d");
  const change: fc.Arbitrary<Change> = fc.oneof(
    fc.record({ kind: fc.constant("rename" as const), from: name, to: name }),
    fc.record({ kind: fc.constant("rewrite" as const), path: name, text: content }),
    fc.record({ kind: fc.constant("replace" as const), path: name, text: content }),
    fc.record({ kind: fc.constant("remove" as const), path: name }),
    fc.record({ kind: fc.constant("link" as const), from: name, to: name }),
    fc.record({ kind: fc.constant("symlink" as const), target: name, path: name }),
    fc.record({ kind: fc.constant("mkdir" as const), path: fc.constantFrom("d", "e") }),
    fc.record({ kind: fc.constant("removeFolder" as const), path: fc.constantFrom("d", "e") }),
  );

  /** Applies `changes` in `work` as a program would; a change the disk refuses is passed over. */
  function run(work: string, changes: Change[]): void {
    const at = (rel: string) => path.join(work, rel);
    for (const c of changes) {
      try {
        if (c.kind === "rename") fs.renameSync(at(c.from), at(c.to));
        else if (c.kind === "rewrite") fs.writeFileSync(at(c.path), c.text, { flag: "r+" }), fs.truncateSync(at(c.path), Buffer.byteLength(c.text));
        else if (c.kind === "replace") fs.rmSync(at(c.path), { force: true }), fs.writeFileSync(at(c.path), c.text, { flag: "wx" });
        else if (c.kind === "remove") fs.unlinkSync(at(c.path));
        else if (c.kind === "link") fs.linkSync(at(c.from), at(c.to));
        else if (c.kind === "symlink") fs.symlinkSync(c.target, at(c.path));
        else if (c.kind === "mkdir") fs.mkdirSync(at(c.path));
        else fs.rmSync(at(c.path), { recursive: true });
      } catch {}
    }
  }

  propertyTest(
    "the operations recorded between the folder before and after random changes replay into the folder after, every cut inside them replays, and each names the command",
    [folders, fc.array(change, { minLength: 1, maxLength: 6 })],
    (files, changes) => {
      const root = lay(files);
      const before = snapshot(root, { digests: true });
      run(path.join(root, "work"), changes);
      const after = snapshot(root, { digests: true });
      let fd = 0;
      const ops = externalOps(root, before, after, "exec:mutate", () => ++fd, { file: "mutate", args: [], cwd: path.join(root, "work") });
      const trace: Trace = { entries: [{ kind: "mark", label: "exec:mutate" }, ...ops], truncated: false };
      expect(ops.every((op) => op.api === "exec:mutate")).toBe(true);
      expect(replayedOver(files, trace)).toEqual(listing(root));
      for (const cut of cutsOf(trace)) replayedOver(files, trace, cut);
    },
    60,
  );
});

describe("the programs the grader knows", () => {
  type Template = (x: string, y: string) => string;
  /** Commands over two names of the work folder, as a target writes them. */
  const PROGRAMS: Record<string, Template> = {
    "mv -f": (x, y) => `mv -f ${x} ${y}`,
    "mv into a folder": (x) => `mkdir -p d && mv ${x} d/`,
    cp: (x, y) => `cp ${x} ${y}`,
    ln: (x, y) => `ln ${x} ${y}`,
    "ln -f": (x, y) => `ln -f ${x} ${y}`,
    "sed -i": (x) => `sed -i s/a/b/g ${x}`,
    dd: (x, y) => `dd if=${x} of=${y} status=none`,
    "dd conv=fsync": (x, y) => `dd if=${x} of=${y} conv=fsync status=none`,
    "dd oflag=dsync": (x, y) => `dd if=${x} of=${y} oflag=dsync bs=4 status=none`,
    sync: () => "sync",
    "sync file": (x) => `sync ${x}`,
    "rm -f": (x) => `rm -f ${x}`,
    "cat >": (x, y) => `cat ${x} > ${y}`,
  };
  const file = fc.constantFrom("a", "b", "c");
  const line = fc
    .array(fc.tuple(fc.constantFrom(...Object.keys(PROGRAMS)), file, file), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.map(([p, x, y]) => PROGRAMS[p]!(x, y)).join(" && "));

  /** Runs `lines` as the sandbox's child_process runs them while a scenario is recorded; returns the trace. */
  function record(root: string, lines: string[]): Trace {
    const rec = new Recorder(root);
    const cp = createRecordingChildProcess(() => rec);
    for (const l of lines) {
      try {
        cp.execSync(l, { cwd: path.join(root, "work") });
      } catch (error) {
        // A program that fails (mv of a missing file) is part of the line; the grader's own failure is not.
        if (/could not be told as file operations/.test(String(error))) throw error;
      }
    }
    return rec.trace();
  }

  propertyTest(
    "the operations recorded for shell lines of mv, cp, ln (hard links), sed -i, dd, sync, rm, mkdir and cat replay into the folder the real programs left, and every cut inside them replays",
    [folders, fc.array(line, { minLength: 1, maxLength: 3 })],
    (files, lines) => {
      const root = lay(files);
      const trace = record(root, lines);
      expect(replayedOver(files, trace)).toEqual(listing(root));
      for (const cut of cutsOf(trace)) replayedOver(files, trace, cut);
    },
    12,
  );

  /** What `y` holds at every crash state of the trace, as listed. */
  function statesOf(files: Folder, trace: Trace, y: string): (string | undefined)[] {
    return cutsOf(trace).map((cut) => replayedOver(files, trace, cut)[`work/${y}`]);
  }
  const fileListing = (text: string) => `file ${JSON.stringify(text)}`;
  const distinct = fc.tuple(content, content, fc.constantFrom("a", "b")).filter(([x, y]) => x !== y);

  propertyTest(
    "a crash inside mv -f, ln -f or sed -i onto an existing file leaves it holding its old content or its new one, never missing or in part",
    [distinct],
    ([oldText, newText, x]) => {
      const files = { [x]: newText.replace(/a/g, "A"), c: oldText.replace(/a/g, "A") };
      for (const command of [`mv -f ${x} c`, `ln -f ${x} c`, "sed -i s/A/a/g c"]) {
        const root = lay(files);
        const trace = record(root, [command]);
        const after = listing(root)["work/c"];
        const states = new Set(statesOf(files, trace, "c"));
        expect(states, command).toEqual(new Set([fileListing(files.c!), after]));
      }
    },
    8,
  );

  propertyTest(
    "a crash inside cp or dd onto an existing file leaves it holding its old content or a prefix of its new one, every prefix a state",
    [distinct],
    ([oldText, newText]) => {
      const files = { a: newText, c: oldText };
      for (const command of ["cp a c", "dd if=a of=c status=none"]) {
        const root = lay(files);
        const trace = record(root, [command]);
        const states = new Set(statesOf(files, trace, "c"));
        const prefixes = Array.from({ length: newText.length + 1 }, (_, n) => fileListing(newText.slice(0, n)));
        expect(states, command).toEqual(new Set([fileListing(oldText), ...prefixes]));
      }
    },
    8,
  );

  propertyTest(
    "git init, add, commit, a change and a second commit replay into the repository git left, and a crash inside a git command lands only before it, at its lock and objects, or after it",
    [fc.dictionary(fc.constantFrom("a", "b", "d/c"), content, { minKeys: 1 }), content],
    (files, changed) => {
      const root = lay(files);
      const trace = record(root, ["git init --quiet", "git add -A", 'git commit --quiet -m "one"', `printf '%s' '${changed}' > a`, 'git commit --quiet -am "two"']);
      expect(replayedOver(files, trace)).toEqual(listing(root));
      const cuts = cutsOf(trace);
      for (const span of commandSpans(trace).filter((s) => s.git)) {
        const inside = cuts.filter((c) => (c.bytes === undefined ? c.at > span.start && c.at < span.end : c.at >= span.start && c.at < span.end));
        expect(inside).toEqual(span.killedInside === undefined ? [] : [{ at: span.killedInside }]);
      }
      for (const cut of cuts) replayedOver(files, trace, cut);
    },
    2,
  );
});

test("a swap of two files by a program the grader does not know is told as one rename and the other file written anew", () => {
  const files = { a: "alpha", b: "bravo" };
  const root = lay(files);
  const before = snapshot(root, { digests: true });
  const work = path.join(root, "work");
  fs.renameSync(path.join(work, "a"), path.join(work, "t"));
  fs.renameSync(path.join(work, "b"), path.join(work, "a"));
  fs.renameSync(path.join(work, "t"), path.join(work, "b"));
  let fd = 0;
  const ops = externalOps(root, before, snapshot(root, { digests: true }), "exec:swap", () => ++fd, { file: "swap", args: [], cwd: work });
  expect(ops.map((o) => `${o.kind} ${"path" in o ? o.path : "from" in o ? `${o.from} ${o.to}` : ""}`.trim())).toEqual([
    "rename @/work/a @/work/b",
    "open @/work/a",
    "write",
    "close",
  ]);
});
