// The picture of a crash inside atomicCheckpoint (grading/crash-picture.ts) and its terminal
// lines (contract/picture-lines.ts): drawn from the trace and cut the story is told from, its files
// are those the real replay leaves, and it fits any terminal.
import path from "node:path";
import pc from "picocolors";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import { crashCuts } from "../../crash/cuts.js";
import { POWER_POLICIES } from "../../crash/power-loss.js";
import type { Cut, FsOp, Trace } from "../../crash/model.js";
import { normaliseName } from "../../crash/names.js";
import { opFacts, opLabel } from "../../crash/describe.js";
import { replay } from "../../crash/replay.js";
import { crashPicture, pictureFile } from "../../grading/crash-picture.js";
import { filePreview, previewText, PREVIEW_BYTES, type CallsPicture } from "../../contract/picture.js";
import { pictureLines } from "../../report/picture-lines.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { listDisk } from "../../sandbox/runtime/disk.js";
import { layScenario, recordingFs, scratchFolder } from "../support/model-fs.js";
import { NEW, TMP } from "../support/describe-cut.js";

const scratch = scratchFolder();
const OLD = '{"step":1}';
const CHECKPOINT = "@/work/checkpoint.json";

/** Records an old checkpoint written whole, then `calls` between the marks of one atomicCheckpoint. */
function record(calls: (f: typeof import("node:fs"), w: (rel: string) => string) => void): { trace: Trace; start: number } {
  const root = layScenario(scratch.fresh("picture"));
  const w = (rel: string) => path.join(root, "work", rel);
  const rec = new Recorder(root);
  const { fs: f } = recordingFs(rec);
  f.writeFileSync(w("checkpoint.json"), OLD);
  rec.mark("call:atomicCheckpoint");
  const start = rec.trace().entries.length - 1;
  calls(f, w);
  rec.mark("return:atomicCheckpoint");
  return { trace: rec.trace(), start };
}

const atomic = (f: typeof import("node:fs"), w: (rel: string) => string) => {
  const fd = f.openSync(w(TMP), "w");
  f.writeSync(fd, NEW);
  f.fsyncSync(fd);
  f.closeSync(fd);
  f.renameSync(w(TMP), w("checkpoint.json"));
};

/** The picture of `cut`, with the listing of the disk the real replay leaves for it. */
function drawn(trace: Trace, start: number, cut: Cut): { picture: CallsPicture | null; listed: string[] } {
  const root = layScenario(scratch.fresh("replayed"));
  replay(trace, cut, root);
  const disk = listDisk(root);
  return { picture: crashPicture({ trace, cut, windowStart: start, call: "atomicCheckpoint(path, NEW)", checkpoint: CHECKPOINT, disk }), listed: disk.map((f) => `${normaliseName(f.path)} ${f.size}`).sort() };
}

describe("the picture of a crash inside a call", () => {
  test("at every kill and power cut of an atomic checkpoint: the files and sizes the real replay leaves, the crash after the calls made before it (inside a write: the bytes that reached the file), and each file's bytes named old, new, torn or empty as they are", () => {
    const { trace, start } = record(atomic);
    const fsOps = trace.entries.map((e, i) => [e, i] as const).filter(([e, i]) => i > start && e.kind !== "mark");
    const cuts: Cut[] = [...crashCuts(trace, start, trace.entries.length - 1, [0.5]), ...POWER_POLICIES.map((p) => ({ at: trace.entries.length - 1, power: { ...p, settled: start } }))];
    expect(cuts.some((c) => c.bytes !== undefined)).toBe(true);
    for (const cut of cuts) {
      const { picture, listed } = drawn(trace, start, cut);
      expect(picture, JSON.stringify(cut)).not.toBeNull();
      expect(picture!.after.map((f) => `${f.name} ${f.bytes}`).sort()).toEqual(listed);
      expect(picture!.ops.map((o) => o.what)).toEqual(['openSync(".checkpoint.json.*.*.tmp")', 'writeSync(".checkpoint.json.*.*.tmp")', 'fsyncSync(".checkpoint.json.*.*.tmp")', 'closeSync(".checkpoint.json.*.*.tmp")', 'renameSync(".checkpoint.json.*.*.tmp", "checkpoint.json")']);
      expect(picture!.cut.afterOps).toBe(fsOps.filter(([, i]) => i < cut.at).length);
      expect(picture!.cut.written).toBe(cut.bytes);
      expect(picture!.cut.how).toBe(cut.power ? "power cut" : "killed");
      const holds = Object.fromEntries(picture!.after.map((f) => [f.name, f.holds]));
      const renamed = cut.at > fsOps.at(-1)![1];
      if (!cut.power) expect(holds["checkpoint.json"]).toBe(renamed ? "new" : "old");
      if (cut.bytes !== undefined) expect(holds[".checkpoint.json.*.*.tmp"]).toBe(cut.bytes === 0 ? "empty" : "torn");
    }
  });

  test("a power cut that lost the renamed file's unsynced data draws checkpoint.json empty; one that kept it, new", () => {
    const { trace, start } = record((f, w) => {
      f.writeFileSync(w(TMP), NEW);
      f.renameSync(w(TMP), w("checkpoint.json"));
    });
    const at = trace.entries.length - 1;
    const holds = (data: "lost" | "kept") => drawn(trace, start, { at, power: { data, names: "kept", settled: start } }).picture!.after.find((f) => f.name === "checkpoint.json")!.holds;
    expect(holds("lost")).toBe("empty");
    expect(holds("kept")).toBe("new");
  });

  test("a listing that is not the model's disk (a file more, or another size) gives no picture", () => {
    const { trace, start } = record(atomic);
    const cut = { at: start + 2 };
    const root = layScenario(scratch.fresh("replayed"));
    replay(trace, cut, root);
    const disk = listDisk(root);
    const draw = (listing: typeof disk) => crashPicture({ trace, cut, windowStart: start, call: "c", checkpoint: CHECKPOINT, disk: listing });
    expect(draw(disk)).not.toBeNull();
    expect(draw([...disk, { path: "other.json", size: 3, preview: "abc" }])).toBeNull();
    expect(draw(disk.map((f) => ({ ...f, size: f.size + 1 })))).toBeNull();
  });

  test("a call of 500 writes keeps its first and last calls and those around the crash, each gap counting exactly the calls it stands for, and the crash still after the same call", () => {
    const { trace, start } = record((f, w) => {
      const fd = f.openSync(w(TMP), "w");
      for (let i = 0; i < 500; i++) f.writeSync(fd, "x");
      f.closeSync(fd);
      f.renameSync(w(TMP), w("checkpoint.json"));
    });
    const ops = trace.entries.map((e, i) => [e, i] as const).filter(([e, i]) => i > start && e.kind !== "mark");
    const cutAt = ops[250]![1];
    const { picture } = drawn(trace, start, { at: cutAt, bytes: 0 });
    const shown = picture!.ops;
    expect(shown.length).toBeLessThan(40);
    expect(shown.reduce((n, o) => n + (o.skipped ?? 1), 0)).toBe(ops.length);
    // The calls before the marker stand for exactly the 250 made before the crash.
    expect(shown.slice(0, picture!.cut.afterOps).reduce((n, o) => n + (o.skipped ?? 1), 0)).toBe(250);
    expect(shown[picture!.cut.afterOps]!.what).toBe(`writeSync(".checkpoint.json.*.*.tmp")`);
    expect(shown[0]!.what).toMatch(/^openSync/);
    expect(shown.at(-1)!.what).toMatch(/^renameSync/);
  });

  test("a part of a larger call says which part it is: writeFileSync's open, write and close", () => {
    const { trace, start } = record((f, w) => f.writeFileSync(w("checkpoint.json"), NEW));
    const { picture } = drawn(trace, start, { at: start + 2 });
    expect(picture!.ops.map((o) => o.what)).toEqual(['writeFileSync("checkpoint.json"): open', 'writeFileSync("checkpoint.json")', 'writeFileSync("checkpoint.json"): close']);
    expect((trace.entries[start + 2] as FsOp).kind).toBe("write");
  });
});

describe("the folder before and after, and each file's bytes", () => {
  test("the folder when the call began holds the old checkpoint; after a crash inside the temp file's write, the temp file's preview ends at the tear and what never reached it is the rest of the new state", () => {
    const { trace, start } = record(atomic);
    const write = trace.entries.findIndex((e, i) => i > start && e.kind === "write");
    const { picture } = drawn(trace, start, { at: write, bytes: 3 });
    expect(picture!.before).toEqual([{ name: "checkpoint.json", bytes: OLD.length, holds: "old", preview: { text: OLD } }]);
    const torn = picture!.after.find((f) => f.holds === "torn")!;
    expect(torn.preview).toEqual({ text: NEW.slice(0, 3), missingBytes: Buffer.byteLength(NEW) - 3, missingText: previewText(Buffer.from(NEW).subarray(3, 3 + PREVIEW_BYTES / 2)) + (Buffer.byteLength(NEW) - 3 > PREVIEW_BYTES / 2 ? "…" : "") });
  });

  test("a preview shows UTF-8 as its characters, escapes backslashes, newlines, tabs and control characters, shows a character cut by a tear as its bytes, and cuts at 96 bytes with an ellipsis", () => {
    expect(previewText(Buffer.from('{"n":"é𒂢\\"}\n\t\u0000'))).toBe('{"n":"é𒂢\\\\"}\\n\\t\\x00');
    expect(previewText(Buffer.from("é").subarray(0, 1))).toBe("\\xc3");
    expect(previewText(Buffer.from("a\u200fb"))).toBe("a\\xe2\\x80\\x8fb");
    expect(filePreview(Buffer.alloc(200, "x")).text).toBe(`${"x".repeat(PREVIEW_BYTES)}…`);
    const torn = filePreview(Buffer.alloc(100, "a"), Buffer.concat([Buffer.alloc(100, "a"), Buffer.alloc(100, "b")]));
    expect(torn).toEqual({ text: `…${"a".repeat(PREVIEW_BYTES / 2)}`, missingBytes: 100, missingText: `${"b".repeat(PREVIEW_BYTES / 2)}…` });
  });

  test("git's binary files in a .git folder (its index, an object, the index's lock) are drawn with no preview; its text files (HEAD, a ref, a ref's log, config, a lock on HEAD) and the files beside .git keep theirs", () => {
    const binary = Buffer.from("DIRC\u0000\u0000\u0000\u0002");
    for (const name of [".git/index", ".git/index.lock", ".git/objects/61/*", ".git/objects/pack/pack-*.pack", "$TMPDIR/repo/.git/index"]) {
      expect(pictureFile(name, binary, {}), name).toEqual({ name, bytes: binary.length, holds: "other" });
    }
    const ref = Buffer.from("ce39b47c47a21d134ef8456d2c47b50040183a7a\n");
    for (const name of [".git/HEAD", ".git/HEAD.lock", ".git/refs/heads/main", ".git/logs/HEAD", ".git/config", ".git/COMMIT_EDITMSG", "state.json", "git/index"]) {
      expect(pictureFile(name, ref, {}).preview, name).toEqual(filePreview(ref));
    }
    expect(pictureFile("state.json", Buffer.from(OLD), { old: Buffer.from(OLD) })).toEqual({ name: "state.json", bytes: OLD.length, holds: "old", preview: { text: OLD } });
  });
});

describe("a call's label", () => {
  test("what a program the target ran did is labelled with its command line, then the part it did and the files", () => {
    const trace: Trace = { truncated: false, entries: [{ kind: "mark", label: "exec:cp a b" }, { kind: "open", path: "@/work/b", flags: "w", fd: 7, api: "exec:cp a b" }, { kind: "write", fd: 7, bytes: new Uint8Array(3), position: null, api: "exec:cp a b" }, { kind: "rename", from: "@/work/a", to: "@/work/b", api: "exec:mv a b" }] };
    expect([1, 2, 3].map((i) => opLabel(trace, i))).toEqual(['`cp a b`: open "b"', '`cp a b`: write "b"', '`mv a b`: rename "a", "b"']);
  });

  test("the checkpoint's folder, opened and fsynced, is labelled \"the folder\", never by the grader's name for it", () => {
    const trace: Trace = { truncated: false, entries: [{ kind: "open", path: "@/work", flags: "r", fd: 9, api: "openSync" }, { kind: "fsync", fd: 9, data: false, api: "fsyncSync" }, { kind: "open", path: "@/work/work", flags: "r", fd: 10, api: "openSync" }] };
    expect([0, 1, 2].map((i) => opLabel(trace, i))).toEqual(["openSync(the folder)", "fsyncSync(the folder)", 'openSync("work")']);
  });

  test("beside its label, each call's kind and the file it touched as data: the file a descriptor was opened on, a rename's and a link's new name, a program's call by its own kind", () => {
    const trace: Trace = { truncated: false, entries: [
      { kind: "open", path: "@/work/.x.tmp", flags: "w", fd: 3, api: "writeFileSync" },
      { kind: "write", fd: 3, bytes: new Uint8Array(2), position: null, api: "writeFileSync" },
      { kind: "rename", from: "@/work/.x.tmp", to: "@/work/checkpoint.json", api: "renameSync" },
      { kind: "open", path: "@/work", flags: "r", fd: 4, api: "openSync" },
      { kind: "fsync", fd: 4, data: false, api: "fsyncSync" },
      { kind: "unlink", path: "@/work/old.json", api: "rmSync" },
      { kind: "attr", call: "fchmodSync", fd: 3, args: [420], api: "fchmodSync" },
      { kind: "mark", label: "exec:cp a b" },
      { kind: "close", fd: 3, api: "exec:cp a b" },
    ] };
    expect([0, 1, 2, 3, 4, 5, 6, 8].map((i) => opFacts(trace, i))).toEqual([
      { kind: "open", touched: ".x.tmp" },
      { kind: "write", touched: ".x.tmp" },
      { kind: "rename", touched: "checkpoint.json" },
      { kind: "open", touched: "the folder" },
      { kind: "fsync", touched: "the folder" },
      { kind: "unlink", touched: "old.json" },
      { kind: "mode", touched: ".x.tmp" },
      { kind: "close", touched: ".x.tmp" },
    ]);
  });

  test("the file a call touched is named as its label names it: a temp name's process id and random part hidden, so two grades give the same data", () => {
    for (const random of ["a5ef9476650e", "c5692c8db5ec"]) {
      const trace: Trace = { truncated: false, entries: [{ kind: "open", path: `@/work/.checkpoint.json.4006.${random}.tmp`, flags: "w", fd: 3, api: "openSync" }] };
      expect(opFacts(trace, 0)).toEqual({ kind: "open", touched: ".checkpoint.json.*.*.tmp" });
      expect(opLabel(trace, 0)).toContain('".checkpoint.json.*.*.tmp"');
    }
  });
});

describe("the picture in the terminal", () => {
  const torn: CallsPicture = {
    kind: "calls",
    call: 'atomicCheckpoint(path, {"step":2,"notes":"a state long enough to be cut at forty columns"})',
    ops: [{ what: 'openSync(".checkpoint.json.*.*.tmp")' }, { what: "", skipped: 40 }, ...Array.from({ length: 6 }, () => ({ what: 'writeSync(".checkpoint.json.*.*.tmp")', bytes: 1024 })), { what: 'fsyncSync(".checkpoint.json.*.*.tmp")' }, { what: 'renameSync(".checkpoint.json.*.*.tmp", "checkpoint.json")' }],
    cut: { afterOps: 5, written: 300, how: "killed" },
    after: [{ name: "checkpoint.json", bytes: 10, holds: "old" }, { name: ".checkpoint.json.*.*.tmp", bytes: 44_332, holds: "torn" }],
  };
  const between: CallsPicture = { ...torn, ops: torn.ops.slice(0, 3), cut: { afterOps: 3, how: "power cut" } };

  test.each([40, 60, 80, 120])("at %i columns, with and without colour: no line wider than the terminal, at most 12 lines", (width) => {
    for (const color of [true, false])
      for (const picture of [torn, between]) {
        const lines = pictureLines(picture, { width, indent: 6, c: pc.createColors(color) });
        expect(lines.length).toBeLessThanOrEqual(12);
        for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
      }
  });

  test("without colour, the crash is marked by a sign and words, a torn write by a bar and its byte count, and each file by what it holds", () => {
    const text = pictureLines(torn, { width: 120, indent: 0, c: pc.createColors(false) }).join("\n");
    expect(text).toContain('45 writeSync(".checkpoint.json.*.*.tmp") (1024 B)\n ✂ killed inside it: 300 of 1024 B reached the file [###.......]');
    expect(text).toContain("… 41 calls before");
    expect(text).toContain('never made: 4 calls, from writeSync(".checkpoint.json.*.*.tmp")');
    expect(text).toContain("After the crash: checkpoint.json (10 B): old state; .checkpoint.json.*.*.tmp (44332 B): part of a state");
    const power = pictureLines(between, { width: 100, indent: 0, c: pc.createColors(false) }).join("\n");
    expect(power).toContain("✂ the power was cut after its last call");
    expect(power).not.toContain("never made");
  });
});
