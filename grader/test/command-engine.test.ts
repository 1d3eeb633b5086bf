// Programs other than git in the crash engine: real mv, cp, dd, ln and sync run through the
// sandbox's child_process; their recorded operations rebuild the folder they left, with the
// atomicity the real programs have (a rename is one operation, a copy can be torn anywhere), the
// syncs they make, and labels that name no scratch folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dir } from "tmp-promise";
import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { commandSpans } from "../crash/commands.js";
import { REPO_ROOT } from "../paths.js";
import { crashCuts } from "../crash/cuts.js";
import { describeCut } from "../crash/describe.js";
import type { FsOp, Trace } from "../crash/model.js";
import { modelAt } from "../crash/power-loss.js";
import { replay } from "../crash/replay.js";
import { Recorder } from "../sandbox/interposition/recorder.js";
import { createRecordingChildProcess } from "../sandbox/interposition/recording-exec.js";

let work: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  work = await dir({ unsafeCleanup: true });
});
afterEach(() => work.cleanup());

type ChildProcess = ReturnType<typeof createRecordingChildProcess>;

/** A scenario folder (work/, cwd/, tmp/) holding `files` in work/; `tmp` may be a link to a folder elsewhere. */
function scenario(name: string, files: Record<string, string>, tmp?: string): string {
  const root = path.join(work.path, name);
  for (const sub of ["work", "cwd", ...(tmp ? [] : ["tmp"])]) fs.mkdirSync(path.join(root, sub), { recursive: true });
  if (tmp) fs.symlinkSync(tmp, path.join(root, "tmp"));
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), content);
  return root;
}

/** Runs `commands` with the sandbox's child_process while `root` is recorded; returns the trace. */
function record(root: string, commands: (cp: ChildProcess, w: (rel: string) => string) => void): Trace {
  const rec = new Recorder(root);
  commands(createRecordingChildProcess(() => rec), (rel) => path.join(root, rel));
  return rec.trace();
}

/** Every path below `root` with its content (a folder as "/", a link as "-> target"). */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const abs = path.join(d, name);
      const st = fs.lstatSync(abs);
      if (st.isSymbolicLink() && rel + name !== "tmp") out[rel + name] = `-> ${fs.readlinkSync(abs)}`;
      else if (fs.statSync(abs).isDirectory()) (out[`${rel}${name}/`] = ""), walk(abs, `${rel}${name}/`);
      else out[rel + name] = fs.readFileSync(abs, "utf8");
    }
  };
  walk(root, "");
  return out;
}

/** The operations of the trace's `n`-th command, as "kind path" lines. */
function opsOf(trace: Trace, n = 0): string[] {
  const span = commandSpans(trace)[n]!;
  return (trace.entries.slice(span.start, span.end) as FsOp[]).map((e) => {
    if (e.kind === "rename" || e.kind === "link") return `${e.kind} ${e.from} ${e.to}`;
    return "path" in e ? `${e.kind} ${e.path}${e.kind === "open" ? ` ${e.flags}` : ""}` : e.kind;
  });
}

/** A copy of `root` as it is now, to replay into later (a tmp/ link points at a copy of its own). */
function copyOf(root: string, name: string): string {
  const copy = path.join(work.path, name);
  fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => src !== path.join(root, "tmp") });
  const tmp = path.join(root, "tmp");
  if (fs.lstatSync(tmp).isSymbolicLink()) {
    const other = fs.mkdtempSync(path.join(path.dirname(fs.readlinkSync(tmp)), "copy-"));
    fs.cpSync(tmp + "/", other, { recursive: true });
    fs.symlinkSync(other, path.join(copy, "tmp"));
  } else fs.cpSync(tmp, path.join(copy, "tmp"), { recursive: true });
  return copy;
}

const NEW = '{"step":2,"notes":"the new state, 40 b"}';
const OLD = '{"step":1}';

describe("commands in a trace", () => {
  test("replaying the operations of mv, cp, dd, ln, sync, rm and mkdir into the folder before rebuilds the folder after, byte for byte", () => {
    const root = scenario("real", { "work/a": "alpha", "work/b": "bravo", "work/c": "charlie", "work/d": "delta", "work/e": "echo" });
    const copy = copyOf(root, "copy");
    const trace = record(root, (cp, w) => {
      const opts = { cwd: w("work") };
      cp.execFileSync("mv", ["-f", "a", "b"], opts);
      cp.execFileSync("cp", ["c", "d"], opts);
      cp.execFileSync("cp", ["c", "new"], opts);
      cp.execFileSync("dd", ["of=e", "conv=fsync", "status=none"], { ...opts, input: "written by dd" });
      cp.execFileSync("ln", ["b", "hard"], opts);
      cp.execFileSync("ln", ["-f", "c", "d"], opts);
      cp.execSync("mkdir -p sub/deeper && mv new sub/ && rm e && sync", opts);
      cp.spawnSync("ln", ["-s", "b", "soft"], opts);
    });
    expect(commandSpans(trace).map((s) => s.command)).toHaveLength(8);
    replay(trace, { at: trace.entries.length }, copy);
    expect(tree(copy)).toEqual(tree(root));
    const ino = (rel: string) => fs.statSync(path.join(copy, "work", rel)).ino;
    expect(ino("hard")).toBe(ino("b"));
    expect(ino("d")).toBe(ino("c"));
  });

  test("mv within a folder is exactly one rename; within a file system, into a subfolder too", () => {
    const root = scenario("mv", { "work/t": NEW, "work/checkpoint.json": OLD });
    fs.mkdirSync(path.join(root, "work/sub"));
    const trace = record(root, (cp, w) => {
      cp.execFileSync("mv", ["-f", w("work/t"), w("work/checkpoint.json")]);
      cp.spawnSync("mv", [w("work/checkpoint.json"), w("work/sub/")]);
    });
    expect(opsOf(trace, 0)).toEqual(["rename @/work/t @/work/checkpoint.json"]);
    expect(opsOf(trace, 1)).toEqual(["rename @/work/checkpoint.json @/work/sub/checkpoint.json"]);
  });

  test("every crash inside cp onto a file leaves it a prefix of the new content, and every prefix can be left", () => {
    const root = scenario("cp", { "work/checkpoint.json.tmp": NEW, "work/checkpoint.json": OLD });
    const before = copyOf(root, "before");
    const trace = record(root, (cp, w) => cp.execFileSync("cp", ["checkpoint.json.tmp", "checkpoint.json"], { cwd: w("work") }));
    expect(opsOf(trace)).toEqual(["open @/work/checkpoint.json w", "write", "close"]);
    const span = commandSpans(trace)[0]!;
    const inside = crashCuts(trace, 0, trace.entries.length).filter((c) => c.at >= span.start && c.at < span.end && !(c.at === span.start && c.bytes === undefined));
    const lengths = new Set<number>();
    for (const [i, cut] of inside.entries()) {
      const state = copyOf(before, `state-${i}`);
      replay(trace, cut, state);
      const left = fs.readFileSync(path.join(state, "work/checkpoint.json"), "utf8");
      expect(NEW.startsWith(left)).toBe(true);
      lengths.add(left.length);
    }
    expect([...lengths].sort((a, b) => a - b)).toEqual(Array.from({ length: NEW.length + 1 }, (_, n) => n));
  });

  test("a killed cp is told as how far the destination got; a finished mv by its name; no scratch path in either", () => {
    const root = scenario("tell", { "work/checkpoint.json.tmp": NEW, "work/checkpoint.json": OLD, "work/.checkpoint.json.4026.a1b2c3d4.tmp": NEW });
    const trace = record(root, (cp, w) => {
      cp.execFileSync("cp", ["checkpoint.json.tmp", "checkpoint.json"], { cwd: w("work") });
      cp.execFileSync("mv", ["-f", w("work/.checkpoint.json.4026.a1b2c3d4.tmp"), w("work/checkpoint.json")]);
    });
    const [copy, move] = commandSpans(trace);
    expect(describeCut(trace, { at: copy!.start + 1, bytes: 17 }, 0, { call: "atomicCheckpoint" })).toBe("killed inside `cp checkpoint.json.tmp checkpoint.json`: checkpoint.json had 17 of 40 bytes");
    expect(describeCut(trace, { at: copy!.start + 1 }, 0, { call: "atomicCheckpoint" })).toBe("killed inside `cp checkpoint.json.tmp checkpoint.json`: checkpoint.json had 0 of 40 bytes");
    expect(describeCut(trace, { at: move!.end }, 0, { call: "atomicCheckpoint" })).toBe("killed right after `mv -f .checkpoint.json.*.*.tmp checkpoint.json` finished");
    for (const e of trace.entries) expect(e.kind === "mark" ? e.label : "api" in e ? e.api : "").not.toContain(work.path);
  });

  test("a shell line's programs keep their order: rm then mv can leave no checkpoint; sync, mv, sync make the data durable before the rename", () => {
    const root = scenario("shell", { "work/t": NEW, "work/u": NEW, "work/checkpoint.json": OLD, "work/other.json": OLD });
    const trace = record(root, (cp, w) => {
      cp.execSync(`rm -f "${w("work/checkpoint.json")}" && mv t "${w("work/checkpoint.json")}"`, { cwd: w("work") });
      cp.execSync("sync u && mv -f u other.json && sync", { cwd: w("work") });
    });
    expect(commandSpans(trace)[0]!.command).toBe('rm -f "checkpoint.json" && mv t "checkpoint.json"');
    expect(opsOf(trace, 0)).toEqual(["unlink @/work/checkpoint.json", "rename @/work/t @/work/checkpoint.json"]);
    const synced = opsOf(trace, 1);
    expect(synced.slice(0, 4)).toEqual(["open @/work/u r", "fsync", "close", "rename @/work/u @/work/other.json"]);
    expect(synced.slice(4)).toContain("open @/work r");
  });

  test("a file a shell line writes under a name it then moves is written there and renamed: cat > t && sync t && mv t f", () => {
    const root = scenario("cat", { "work/checkpoint.json": OLD });
    const copy = copyOf(root, "cat-copy");
    const trace = record(root, (cp, w) => cp.execSync("cat > t && sync t && mv -f t checkpoint.json", { cwd: w("work"), input: NEW }));
    expect(opsOf(trace)).toEqual(["open @/work/t wx", "write", "close", "open @/work/t r", "fsync", "close", "rename @/work/t @/work/checkpoint.json"]);
    replay(trace, { at: trace.entries.length }, copy);
    expect(tree(copy)).toEqual(tree(root));
  });

  test("a program not known to do otherwise writes an existing file in place, or removes it before writing a new one; sed -i renames its temp over it", () => {
    const root = scenario("unknown", { "work/a": OLD, "work/b": OLD, "work/c": OLD });
    const trace = record(root, (cp, w) => {
      const opts = { cwd: w("work") };
      cp.execSync(`printf '%s' '${NEW}' > a`, opts);
      cp.execFileSync("install", ["a", "b"], opts);
      cp.execFileSync("sed", ["-i", "s/1/3/", "c"], opts);
    });
    expect(opsOf(trace, 0)).toEqual(["open @/work/a w", "write", "close"]);
    expect(opsOf(trace, 1)).toEqual(["unlink @/work/b", "open @/work/b wx", "write", "close"]);
    expect(opsOf(trace, 2)).toEqual(["open @/work/sedXXXXXX wx", "write", "close", "rename @/work/sedXXXXXX @/work/c"]);
  });

  test("dd conv=fsync, dd oflag=dsync and sync make what they name durable; cp and mv alone do not", () => {
    const root = scenario("durable", { "work/src": NEW });
    const trace = record(root, (cp, w) => {
      const opts = { cwd: w("work") };
      cp.execFileSync("cp", ["src", "copied"], opts);
      cp.execFileSync("dd", ["of=dd-synced", "conv=fsync", "status=none"], { ...opts, input: NEW });
      cp.execFileSync("dd", ["of=dd-blocks", "oflag=dsync", "bs=16", "status=none"], { ...opts, input: NEW });
      cp.execFileSync("mv", ["copied", "moved"], opts);
    });
    const files = (at: number) => {
      const model = modelAt(trace, { at });
      return (name: string) => {
        const node = model.nodeAt(`@/work/${name}`)!;
        return { synced: node.kind === "file" && node.synced.equals(node.data), named: model.entryDurable(`@/work/${name}`) };
      };
    };
    const [, dd, blocks] = commandSpans(trace);
    expect(opsOf(trace, 1)).toEqual(["open @/work/dd-synced wx", "write", "close", "open @/work/dd-synced r", "fsync", "close"]);
    expect(opsOf(trace, 2).filter((k) => k === "fsync")).toHaveLength(Math.ceil(NEW.length / 16));
    const end = files(trace.entries.length);
    expect(end("moved")).toEqual({ synced: false, named: false });
    expect(end("dd-synced")).toEqual({ synced: true, named: false });
    expect(end("dd-blocks").synced).toBe(true);
    // Right after dd's write, before its fsync: not yet durable.
    expect(files(dd!.start + 2)("dd-synced").synced).toBe(false);
    expect(blocks!.end).toBeGreaterThan(blocks!.start);

    const all = record(root, (cp, w) => {
      cp.execFileSync("cp", ["src", "again"], { cwd: w("work") });
      cp.execFileSync("sync", [w("work/again")]);
      cp.execSync("sync");
    });
    expect(opsOf(all, 1)).toEqual(["open @/work/again r", "fsync", "close"]);
    const model = modelAt(all, { at: commandSpans(all)[2]!.start });
    expect(model.entryDurable("@/work/again")).toBe(false);
    const synced = modelAt(all, { at: all.entries.length });
    expect(synced.entryDurable("@/work/again")).toBe(true);
    expect(commandSpans(all)[1]!.command).toBe("sync again");
  });

  test("a FIFO a command makes is left out of the recording, never read (reading it would block the grader)", () => {
    const root = scenario("fifo", {});
    const trace = record(root, (cp, w) => cp.execFileSync("mkfifo", [w("work/fifo")]));
    expect(opsOf(trace)).toEqual([]);
  });

  test("ln -f replaces a file through a temporary name and a rename, as GNU ln does: no crash leaves it missing", () => {
    const root = scenario("ln", { "work/t": NEW, "work/checkpoint.json": OLD });
    const trace = record(root, (cp, w) => cp.execFileSync("ln", ["-f", "t", "checkpoint.json"], { cwd: w("work") }));
    expect(opsOf(trace)).toEqual(["link @/work/t @/work/CuXXXXXX", "rename @/work/CuXXXXXX @/work/checkpoint.json"]);
  });

  test("mv from $TMPDIR on another file system is a copy: the destination removed and written anew, then the source removed", () => {
    const { path: other, cleanup } = folderOnAnotherFileSystem(work.path);
    try {
      fs.writeFileSync(path.join(other, "x.tmp"), NEW);
      const root = scenario("xfs", { "work/checkpoint.json": OLD }, other);
      const copy = copyOf(root, "xfs-copy");
      const trace = record(root, (cp, w) => cp.execFileSync("mv", ["-f", w("tmp/x.tmp"), w("work/checkpoint.json")]));
      expect(commandSpans(trace)[0]!.command).toBe("mv -f $TMPDIR/x.tmp checkpoint.json");
      expect(opsOf(trace)).toEqual(["unlink @/work/checkpoint.json", "open @/work/checkpoint.json wx", "write", "close", "unlink @/tmp/x.tmp"]);
      replay(trace, { at: trace.entries.length }, copy);
      expect(tree(copy)).toEqual(tree(root));
      expect(tree(fs.readlinkSync(path.join(copy, "tmp")))).toEqual({});
      fs.rmSync(fs.readlinkSync(path.join(copy, "tmp")), { recursive: true });
    } finally {
      cleanup();
    }
  });

  /** A new folder on another file system than `near`: in the first writable candidate on another device, or, as root, on a tmpfs mounted for it. */
  function folderOnAnotherFileSystem(near: string): { path: string; cleanup: () => void } {
    const dev = fs.statSync(near).dev;
    const removing = (folder: string) => ({ path: folder, cleanup: () => fs.rmSync(folder, { recursive: true, force: true }) });
    for (const base of ["/dev/shm", os.tmpdir(), "/tmp", "/var/tmp", "/run", os.homedir(), REPO_ROOT]) {
      try {
        if (fs.statSync(base).dev !== dev) return removing(fs.mkdtempSync(path.join(base, ".command-engine-")));
      } catch {
        // not there, or not writable: the next one
      }
    }
    const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "command-engine-tmpfs-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint]);
    return {
      path: fs.mkdtempSync(path.join(mountPoint, "x-")),
      cleanup: () => (execFileSync("umount", [mountPoint]), fs.rmdirSync(mountPoint)),
    };
  }

  test("inside a git command, generic crash points are only git's own: before it, with its lock and new objects, after it", () => {
    const root = scenario("git", { "work/state.json": OLD });
    const trace = record(root, (cp, w) => {
      const git = (...args: string[]) => cp.execFileSync("git", args, { cwd: w("work") });
      git("init", "--quiet");
      git("add", "--", "state.json");
      git("commit", "--quiet", "-m", "step 1");
    });
    const spans = commandSpans(trace);
    expect(spans.every((s) => s.git)).toBe(true);
    const cuts = crashCuts(trace, 0, trace.entries.length);
    for (const span of spans) {
      const inside = cuts.filter((c) => (c.bytes === undefined ? c.at > span.start && c.at < span.end : c.at >= span.start && c.at < span.end));
      expect(inside).toEqual(span.killedInside === undefined ? [] : [{ at: span.killedInside }]);
      expect(cuts).toContainEqual({ at: span.end });
    }
    expect(describeCut(trace, { at: spans[2]!.killedInside! }, 0, { call: "runTask" })).toBe('killed inside `git commit --quiet -m "step 1"`: it left .git/index.lock and 2 new objects that no ref points at');
  });
});
