// What a student reads of a crash inside the target's own calls (describeCut, crash/describe.ts):
// the call, the file (temp names hidden as on disk listings), how far it got. Each string was read
// off the engine and checked against what happened at that point.
import fs from "node:fs";
import { describe, expect, test } from "vitest";
import { cutPlace, describeCut } from "../../crash/describe.js";
import type { Trace } from "../../crash/model.js";
import { callRecorder, NEW, TMP } from "../support/describe-cut.js";
import { cpSyncReplacesExclusively } from "../../sandbox/interposition/node-quirks.js";
import { scratchFolder } from "../support/model-fs.js";

const recordCalls = callRecorder(scratchFolder());

/** What a student reads for a crash right after each entry of the trace from `start` on, and in the middle (`bytes` in) of each write. */
function told(trace: Trace, start: number, bytes = 17): string[] {
  const out: string[] = [describeCut(trace, { at: start }, start, { call: "atomicCheckpoint" })];
  for (let i = start; i < trace.entries.length; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "write" && e.bytes.byteLength > bytes) out.push(describeCut(trace, { at: i, bytes }, start, { call: "atomicCheckpoint" }));
    out.push(describeCut(trace, { at: i + 1 }, start, { call: "atomicCheckpoint" }));
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
      'killed right after copyFileSync("backup.json") opened the file (flags O_WRONLY|O_CREAT)',
      'killed right after copyFileSync truncated "backup.json" to 0 bytes',
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
    // Node 22 and later copy onto the freed name as std::filesystem::copy_file does (node-quirks.ts).
    const copyOpen = cpSyncReplacesExclusively()
      ? ['killed right after cpSync("copy.json") opened the file (flags O_WRONLY|O_CREAT|O_EXCL)', 'killed right after cpSync("copy.json") changed its mode']
      : ['killed right after cpSync("copy.json") opened the file (flags O_WRONLY|O_CREAT)', 'killed right after cpSync truncated "copy.json" to 0 bytes'];
    expect(told(trace, start).slice(2)).toEqual([
      'killed right after ftruncateSync truncated "checkpoint.json" to 0 bytes',
      'killed right after ftruncateSync truncated "checkpoint.json" to 0 bytes',
      'killed right after truncateSync("old.json") truncated it to 3 bytes',
      'killed right after unlinkSync("old.json")',
      'killed right after linkSync("checkpoint.json", "hard.json")',
      'killed right after symlinkSync("checkpoint.json", "current")',
      'killed right after chmodSync("checkpoint.json") changed its mode',
      'killed right after cpSync removed "copy.json"',
      ...copyOpen,
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
    expect(describeCut(trace, { at: 3 }, 0, { call: "atomicCheckpoint" })).toBe('killed right after fsyncSync failed to sync "t"');
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
    expect(describeCut(trace, { at: trace.entries.length }, trace.entries.length, { call: "runStep" })).toBe("killed as runStep started, before it changed anything on disk");
  });

  test("the interruption and the place are told apart: a power cut's words and a chain of runs' place come from the cut, not from rewording a killed process's sentence", () => {
    const { trace } = recordCalls((f, w) => f.writeFileSync(w("checkpoint.json"), NEW));
    const end = trace.entries.length;
    expect(cutPlace(trace, { at: end }, end)).toBe("before it changed anything on disk");
    expect(describeCut(trace, { at: end }, end, { call: "it", interruption: "interrupted by a power cut" })).toBe("interrupted by a power cut as it started, before it changed anything on disk");
    expect(cutPlace(trace, { at: end }, 0)).toMatch(/^right after writeFileSync wrote \d+ bytes to "checkpoint.json"$/);
    expect(describeCut(trace, { at: end }, 0, { call: "runStep", interruption: "interrupted by a power cut" })).toBe(`interrupted by a power cut ${cutPlace(trace, { at: end }, 0)}`);
  });
});
