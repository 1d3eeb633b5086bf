// What a student reads of the disk and of a power cut: a disk listing (describeDisk), what was not
// yet durable when the power went (crash/power-loss.ts), and each power-loss policy in words.
import { describe, expect, test } from "vitest";
import { describeDisk } from "../../crash/describe.js";
import { describePolicy, modelAt, POWER_POLICIES } from "../../crash/power-loss.js";
import { callRecorder, TMP } from "../support/describe-cut.js";
import { missingStep } from "../../crash/power-loss.js";
import { scratchFolder } from "../support/model-fs.js";

const recordCalls = callRecorder(scratchFolder());

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

describe("the step a write is missing against a power cut, in words and as data", () => {
  test("a rename of data never fsynced is missing the data's fsync; of fsynced data with no fsync of the folder after it, the folder's; with both, none", () => {
    const write = (opts: { syncData: boolean; syncFolder: boolean }) =>
      recordCalls((f, w) => {
        const fd = f.openSync(w(TMP), "w");
        f.writeSync(fd, "new");
        if (opts.syncData) f.fsyncSync(fd);
        f.closeSync(fd);
        f.renameSync(w(TMP), w("checkpoint.json"));
        if (opts.syncFolder) {
          const dir = f.openSync(w(""), "r");
          f.fsyncSync(dir);
          f.closeSync(dir);
        }
      });
    const missing = (opts: { syncData: boolean; syncFolder: boolean }) => {
      const { trace, start } = write(opts);
      return missingStep(trace, start, trace.entries.length);
    };
    expect(missing({ syncData: false, syncFolder: true })).toEqual({ step: "data", words: 'the data of ".checkpoint.json.*.*.tmp" was never fsynced before the rename' });
    expect(missing({ syncData: true, syncFolder: false })?.step).toBe("folder");
    expect(missing({ syncData: true, syncFolder: true })).toBeNull();
  });
});
