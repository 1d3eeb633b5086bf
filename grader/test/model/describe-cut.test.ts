// What a student reads of a crash point: describeCut (crash/describe.ts) for the target's own
// calls, describeCommandCut (crash/describe-command.ts) for a program it ran, describeDisk,
// describePolicy and what was not yet durable at a power cut. Each string below was read off the
// engine and checked against what happened at that point: the call, the file (temp names hidden
// as on disk listings), how far it got.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { commandSpans } from "../../crash/commands.js";
import { describeCut, describeDisk } from "../../crash/describe.js";
import { describePolicy, modelAt, POWER_POLICIES } from "../../crash/power-loss.js";
import type { Trace } from "../../crash/model.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { createRecordingChildProcess } from "../../sandbox/interposition/recording-exec.js";
import { layScenario, recordingFs, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();
const NEW = '{"step":2,"notes":"the new state, 40 b"}';
const TMP = ".checkpoint.json.4026.a1b2c3d4.tmp";

/** Records `calls` made with the recording fs in a scenario's work folder, after a mark "call:atomicCheckpoint"; the trace and where the call starts. */
function recordCalls(calls: (fs: typeof import("node:fs"), w: (rel: string) => string) => void, before?: (w: (rel: string) => string) => void): { trace: Trace; start: number } {
  const root = layScenario(scratch.fresh("calls"));
  const w = (rel: string) => path.join(root, "work", rel);
  before?.(w);
  const rec = new Recorder(root);
  rec.mark("call:atomicCheckpoint");
  calls(recordingFs(rec).fs, w);
  return { trace: rec.trace(), start: 1 };
}

/** What a student reads for a crash right after each entry of the trace from `start` on, and in the middle (`bytes` in) of each write. */
function told(trace: Trace, start: number, bytes = 17): string[] {
  const out: string[] = [describeCut(trace, { at: start }, start, "atomicCheckpoint")];
  for (let i = start; i < trace.entries.length; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "write" && e.bytes.byteLength > bytes) out.push(describeCut(trace, { at: i, bytes }, start, "atomicCheckpoint"));
    out.push(describeCut(trace, { at: i + 1 }, start, "atomicCheckpoint"));
  }
  return out;
}

describe("a crash inside the target's own calls", () => {
  test("an atomic checkpoint through a descriptor: the call's start, the open, the torn and the whole write, the fsync, the rename, each told by the call and the file; a close changes nothing, so what came before it is told", () => {
    const { trace, start } = recordCalls((f, w) => {
      const fd = f.openSync(w(TMP), "w");
      f.writeSync(fd, NEW);
      f.fsyncSync(fd);
      f.closeSync(fd);
      f.renameSync(w(TMP), w("checkpoint.json"));
    });
    expect(told(trace, start)).toEqual([
      "killed as atomicCheckpoint started, before it changed anything on disk",
      'killed right after openSync(".checkpoint.json.*.*.tmp") opened the file (flags "w")',
      'killed in the middle of writeSync(".checkpoint.json.*.*.tmp"): 17 of 40 bytes had reached the file',
      'killed right after writeSync wrote 40 bytes to ".checkpoint.json.*.*.tmp"',
      'killed right after fsyncSync synced ".checkpoint.json.*.*.tmp"',
      'killed right after fsyncSync synced ".checkpoint.json.*.*.tmp"',
      'killed right after renameSync(".checkpoint.json.*.*.tmp", "checkpoint.json")',
    ]);
  });

  test("writeFileSync, appendFileSync and copyFileSync are told by the call the target made, not by the open, write and close they are made of", () => {
    const { trace, start } = recordCalls((f, w) => {
      f.writeFileSync(w("checkpoint.json.tmp"), NEW);
      f.appendFileSync(w("log"), "step 2 saved\n");
      f.copyFileSync(w("checkpoint.json.tmp"), w("backup.json"));
    });
    expect(told(trace, start, 5)).toEqual([
      "killed as atomicCheckpoint started, before it changed anything on disk",
      'killed right after writeFileSync("checkpoint.json.tmp") opened the file (flags "w")',
      'killed in the middle of writeFileSync("checkpoint.json.tmp"): 5 of 40 bytes had reached the file',
      'killed right after writeFileSync wrote 40 bytes to "checkpoint.json.tmp"',
      'killed right after writeFileSync wrote 40 bytes to "checkpoint.json.tmp"',
      'killed right after appendFileSync("log") opened the file (flags "a")',
      'killed in the middle of appendFileSync("log"): 5 of 13 bytes had reached the file',
      'killed right after appendFileSync wrote 13 bytes to "log"',
      'killed right after appendFileSync wrote 13 bytes to "log"',
      'killed right after copyFileSync("backup.json") opened the file (flags "w")',
      'killed in the middle of copyFileSync("backup.json"): 5 of 40 bytes had reached the file',
      'killed right after copyFileSync wrote 40 bytes to "backup.json"',
      'killed right after copyFileSync wrote 40 bytes to "backup.json"',
    ]);
  });

  test("truncations, removals, links and attribute changes: a call the target made itself reads as that call, a step of a larger call says what the step did", () => {
    const { trace, start } = recordCalls(
      (f, w) => {
        const fd = f.openSync(w("checkpoint.json"), "r+");
        f.ftruncateSync(fd, 0);
        f.closeSync(fd);
        f.truncateSync(w("old.json"), 3);
        f.unlinkSync(w("old.json"));
        f.linkSync(w("checkpoint.json"), w("hard.json"));
        f.symlinkSync("checkpoint.json", w("current"));
        f.chmodSync(w("checkpoint.json"), 0o600);
        f.cpSync(w("source.json"), w("copy.json"));
        f.rmSync(w("sessions"), { recursive: true });
      },
      (w) => {
        fs.writeFileSync(w("checkpoint.json"), "{}");
        fs.writeFileSync(w("old.json"), "{}");
        fs.writeFileSync(w("copy.json"), "{}");
        fs.writeFileSync(w("source.json"), "[]");
        fs.mkdirSync(w("sessions"));
        fs.writeFileSync(w("sessions/1"), "");
      },
    );
    expect(told(trace, start).slice(2)).toEqual([
      'killed right after ftruncateSync truncated "checkpoint.json" to 0 bytes',
      'killed right after ftruncateSync truncated "checkpoint.json" to 0 bytes',
      'killed right after truncateSync("old.json") truncated it to 3 bytes',
      'killed right after unlinkSync("old.json")',
      'killed right after linkSync("checkpoint.json", "hard.json")',
      'killed right after symlinkSync("checkpoint.json", "current")',
      'killed right after chmodSync("checkpoint.json") changed its mode',
      'killed right after cpSync removed "copy.json"',
      'killed right after cpSync("copy.json") opened the file (flags "w")',
      'killed right after cpSync wrote 2 bytes to "copy.json"',
      'killed right after cpSync wrote 2 bytes to "copy.json"',
      'killed right after rmSync removed "sessions/1"',
      'killed right after rmSync removed the folder "sessions"',
    ]);
  });

  test("a link to an absolute path in the work folder names its target relative to the work folder, as every path is told; a link cpSync copies is told by what the step did", () => {
    const { trace, start } = recordCalls(
      (f, w) => {
        f.symlinkSync(w("checkpoint.json"), w("current"));
        f.cpSync(w("previous"), w("copy"));
      },
      (w) => {
        fs.writeFileSync(w("checkpoint.json"), "{}");
        fs.symlinkSync("checkpoint.json", w("previous"));
      },
    );
    expect(told(trace, start).slice(1)).toEqual(['killed right after symlinkSync("checkpoint.json", "current")', 'killed right after cpSync made "copy" a link to "checkpoint.json"']);
  });

  test("an fsync is a point of its own, told by the call and what it synced (the work folder as the folder), so a power cut right after it does not read as one right before it", () => {
    const { trace, start } = recordCalls((f, w) => {
      const fd = f.openSync(w("t"), "w");
      f.writeSync(fd, "{}");
      f.fsyncSync(fd);
      f.fdatasyncSync(fd);
      f.closeSync(fd);
      const dir = f.openSync(w(""), "r");
      f.fsyncSync(dir);
      f.closeSync(dir);
      f.writeFileSync(w("u"), NEW, { flush: true });
    });
    expect(told(trace, start, 40).slice(2)).toEqual([
      'killed right after writeSync wrote 2 bytes to "t"',
      'killed right after fsyncSync synced "t"',
      'killed right after fdatasyncSync synced "t"',
      'killed right after fdatasyncSync synced "t"',
      'killed right after fdatasyncSync synced "t"',
      "killed right after fsyncSync synced the folder",
      "killed right after fsyncSync synced the folder",
      'killed right after writeFileSync("u") opened the file (flags "w")',
      'killed right after writeFileSync wrote 40 bytes to "u"',
      'killed right after writeFileSync synced "u"',
      'killed right after writeFileSync synced "u"',
    ]);
  });

  test("an fsync that failed is told as failed", () => {
    const trace: Trace = {
      entries: [
        { kind: "open", path: "@/work/t", flags: "w", fd: 1, api: "openSync" },
        { kind: "write", fd: 1, bytes: Buffer.from("{}"), position: null, api: "writeSync" },
        { kind: "fsync", fd: 1, data: false, failed: true, api: "fsyncSync" },
      ],
      truncated: false,
    };
    expect(describeCut(trace, { at: 3 }, 0, "atomicCheckpoint")).toBe('killed right after fsyncSync failed to sync "t"');
  });

  test("a recursive mkdirSync is told as the call the target made: each folder before the last by the folder it had made, the last as the call itself", () => {
    const { trace, start } = recordCalls((f, w) => {
      f.mkdirSync(w("a/b"), { recursive: true });
      f.mkdirSync(w("c"));
    });
    expect(told(trace, start).slice(1)).toEqual([
      'killed right after mkdirSync("a/b", {recursive: true}) made the folder "a"',
      'killed right after mkdirSync("a/b", {recursive: true})',
      'killed right after mkdirSync("c")',
    ]);
  });

  test("numeric open flags are told by their names in fs.constants (577 is O_WRONLY|O_CREAT|O_TRUNC), string flags as the call gave them", () => {
    const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_EXCL, O_SYNC } = fs.constants;
    const { trace, start } = recordCalls((f, w) => {
      f.openSync(w("n"), O_WRONLY | O_CREAT | O_TRUNC);
      f.openSync(w("m"), O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_SYNC);
    });
    expect(told(trace, start).slice(1)).toEqual([
      'killed right after openSync("n") opened the file (flags O_WRONLY|O_CREAT|O_TRUNC)',
      'killed right after openSync("m") opened the file (flags O_RDWR|O_CREAT|O_EXCL|O_APPEND|O_SYNC)',
    ]);
  });

  test("a crash in a later call's window that lands before its first change says the call had just started, whatever came before it", () => {
    const { trace } = recordCalls((f, w) => f.writeFileSync(w("checkpoint.json"), NEW));
    expect(describeCut(trace, { at: trace.entries.length }, trace.entries.length, "runStep")).toBe("killed as runStep started, before it changed anything on disk");
  });
});

describe("a crash inside a program the target ran", () => {
  /** Runs `lines` with the sandbox's child_process in a work folder holding `files`; the trace. */
  function recordCommands(files: Record<string, string>, lines: string[], tmpFiles: Record<string, string> = {}): { trace: Trace; root: string } {
    const root = layScenario(scratch.fresh("commands"));
    for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, "work", rel), text);
    for (const [rel, text] of Object.entries(tmpFiles)) fs.writeFileSync(path.join(root, "tmp", rel), text);
    const rec = new Recorder(root);
    const cp = createRecordingChildProcess(() => rec);
    for (const l of lines) cp.execSync(l.replace("$ROOT", root), { cwd: path.join(root, "work") });
    return { trace: rec.trace(), root };
  }
  /** What a student reads for a crash after each operation of the `n`-th command, and in the middle (3 bytes in) of each of its writes. */
  function toldInside(trace: Trace, n: number): string[] {
    const span = commandSpans(trace)[n]!;
    const out: string[] = [];
    for (let i = span.start; i < span.end; i++) {
      if (trace.entries[i]!.kind === "write") out.push(describeCut(trace, { at: i, bytes: 3 }, 0, "runTask"));
      out.push(describeCut(trace, { at: i + 1 }, 0, "runTask"));
    }
    return out;
  }

  test("cp onto a file: how far the destination got, then finished; mv by its name alone, a temp name hidden, an absolute path in the work folder shown relative to it", () => {
    const { trace } = recordCommands({ t: NEW, "checkpoint.json": "{}", [TMP]: NEW }, ["cp t checkpoint.json", `mv -f $ROOT/work/${TMP} checkpoint.json`]);
    expect(toldInside(trace, 0)).toEqual([
      "killed inside `cp t checkpoint.json`: checkpoint.json had 0 of 40 bytes",
      "killed inside `cp t checkpoint.json`: checkpoint.json had 3 of 40 bytes",
      "killed inside `cp t checkpoint.json`: checkpoint.json had 40 of 40 bytes",
      "killed right after `cp t checkpoint.json` finished",
    ]);
    expect(toldInside(trace, 1)).toEqual(["killed right after `mv -f .checkpoint.json.*.*.tmp checkpoint.json` finished"]);
  });

  test("ln -f and sed -i, which replace a file through a temporary name: the temporary name's state until the rename", () => {
    const { trace } = recordCommands({ t: NEW, "checkpoint.json": "{}" }, ["ln -f t checkpoint.json", "sed -i s/2/3/ checkpoint.json"]);
    expect(toldInside(trace, 0)).toEqual(["killed inside `ln -f t checkpoint.json`: CuXXXXXX had been linked to t", "killed right after `ln -f t checkpoint.json` finished"]);
    expect(toldInside(trace, 1)).toEqual([
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 0 of 40 bytes",
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 3 of 40 bytes",
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 40 of 40 bytes",
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 40 of 40 bytes",
      "killed right after `sed -i s/2/3/ checkpoint.json` finished",
    ]);
  });

  test("a shell line: each file the line touched, in the order it first touched them; a removal; a folder made; a file from $TMPDIR", () => {
    const { trace } = recordCommands({ t: NEW, "checkpoint.json": "{}" }, ["rm -f checkpoint.json && mv t checkpoint.json", "mkdir -p sub && cp $ROOT/tmp/x.tmp sub/z"], { "x.tmp": "tmpdata" });
    expect(toldInside(trace, 0)).toEqual([
      "killed inside `rm -f checkpoint.json && mv t checkpoint.json`: checkpoint.json had been removed",
      "killed right after `rm -f checkpoint.json && mv t checkpoint.json` finished",
    ]);
    expect(toldInside(trace, 1)).toEqual([
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made",
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made and sub/z had 0 of 7 bytes",
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made and sub/z had 3 of 7 bytes",
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made and sub/z had 7 of 7 bytes",
      "killed right after `mkdir -p sub && cp $TMPDIR/x.tmp sub/z` finished",
    ]);
  });

  test("dd oflag=dsync writes and syncs block by block: the bytes written so far count across its blocks, with how many of them its last fsync made durable", () => {
    const { trace } = recordCommands({ "checkpoint.json": NEW }, ["dd if=checkpoint.json of=copy oflag=dsync bs=16 status=none"]);
    const command = "`dd if=checkpoint.json of=copy oflag=dsync bs=16 status=none`";
    expect(toldInside(trace, 0)).toEqual([
      `killed inside ${command}: copy had 0 of 40 bytes`,
      `killed inside ${command}: copy had 3 of 40 bytes`,
      `killed inside ${command}: copy had 16 of 40 bytes`,
      `killed inside ${command}: copy had 16 of 40 bytes, all synced`,
      `killed inside ${command}: copy had 19 of 40 bytes, 16 of them synced`,
      `killed inside ${command}: copy had 32 of 40 bytes, 16 of them synced`,
      `killed inside ${command}: copy had 32 of 40 bytes, all synced`,
      `killed inside ${command}: copy had 35 of 40 bytes, 32 of them synced`,
      `killed inside ${command}: copy had 40 of 40 bytes, 32 of them synced`,
      `killed inside ${command}: copy had 40 of 40 bytes, all synced`,
      `killed right after ${command} finished`,
    ]);
  });

  test("sync: a crash inside it is told as inside it, not as right after the command before it, with how many of the files and folders it syncs it had synced; a sync of one file names it", () => {
    const { trace } = recordCommands({ a: "A" }, ["cp a b", "sync", "sync b"]);
    const synced = (n: number) => `killed inside \`sync\`: it had synced ${n} of 6 files and folders`;
    // `sync` syncs everything in the scenario folder: the folder itself, cwd, tmp, work, a and b, each opened, fsynced and closed.
    expect(toldInside(trace, 1)).toEqual([
      "killed inside `sync`: it had not changed anything yet",
      ...[1, 2, 3, 4, 5].flatMap((n) => [synced(n), synced(n), synced(n)]),
      synced(6),
      "killed right after `sync` finished",
    ]);
    expect(toldInside(trace, 2)).toEqual(["killed inside `sync b`: it had not changed anything yet", "killed inside `sync b`: it had synced b", "killed right after `sync b` finished"]);
  });

  test("ln -s to an absolute path in the work folder: the link's target is told relative to the work folder", () => {
    const { trace } = recordCommands({ a: NEW }, ["ln -s $ROOT/work/a current && cp a c"]);
    expect(toldInside(trace, 0)).toEqual([
      "killed inside `ln -s a current && cp a c`: current had been made a link to a",
      "killed inside `ln -s a current && cp a c`: current had been made a link to a and c had 0 of 40 bytes",
      "killed inside `ln -s a current && cp a c`: current had been made a link to a and c had 3 of 40 bytes",
      "killed inside `ln -s a current && cp a c`: current had been made a link to a and c had 40 of 40 bytes",
      "killed right after `ln -s a current && cp a c` finished",
    ]);
  });
});

describe("the disk and the power cut, in words", () => {
  test("a listing gives each file's size and the start of its content, one byte in the singular, an empty file without content, a link by its target, temp names hidden", () => {
    expect(
      describeDisk([
        { path: "checkpoint.json", size: 12, preview: '{"a":1,"b":' },
        { path: TMP, size: 0, preview: "" },
        { path: "one", size: 1, preview: "x" },
        { path: "current", size: 0, preview: "a link to checkpoint.json" },
      ]),
    ).toBe('checkpoint.json (12 bytes: "{\\"a\\":1,\\"b\\":"), .checkpoint.json.*.*.tmp (0 bytes), one (1 byte: "x"), current (a link to checkpoint.json)');
    expect(describeDisk([])).toBe("no files");
  });

  test("what was not durable at a power cut: a file replaced without a rename is not said to be renamed, and a file fsynced while empty is told by what that fsync made durable", () => {
    const { trace } = recordCalls((f, w) => {
      f.writeFileSync(w("checkpoint.json"), "old");
      const dir = f.openSync(w(""), "r");
      f.fsyncSync(dir);
      f.closeSync(dir);
      const fd = f.openSync(w("checkpoint.json"), "r");
      f.fsyncSync(fd);
      f.closeSync(fd);
      f.unlinkSync(w("checkpoint.json"));
      f.writeFileSync(w("checkpoint.json"), "new!");
      const e = f.openSync(w("empty"), "w");
      f.fsyncSync(e);
      f.writeSync(e, "abc");
      f.closeSync(e);
    });
    expect(modelAt(trace, { at: trace.entries.length }).volatile()).toEqual([
      'the data of "checkpoint.json" (4 bytes, never fsynced)',
      'the data of "empty" (3 bytes, 0 bytes as of its last fsync)',
      'the new file behind "checkpoint.json" (its folder was not fsynced after it changed)',
      'the new entry "empty" (its folder was not fsynced after it)',
    ]);
  });

  test("each power-loss policy says what became of unsynced data and of folder changes", () => {
    expect(POWER_POLICIES.map(describePolicy)).toEqual([
      "unsynced data was lost, and folder changes reached the disk",
      "only part of the unsynced data reached the disk, and folder changes reached the disk",
      "unsynced data was lost, and folder changes not followed by an fsync of the folder were lost",
      "unsynced data reached the disk, and folder changes not followed by an fsync of the folder were lost",
    ]);
  });
});
