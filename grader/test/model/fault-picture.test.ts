// The picture of a call on a disk that said no (grading/crash-picture.ts, faultPicture) and its
// terminal lines and SVG: recorded in this process under every fault the disk-fault checks make,
// the call it marks is the one the fault hit (an oracle mark placed by the disk itself says
// where), the calls after it are those that ran, its files are the real disk's, and it is null
// when the trace cannot place the fault for sure.
import path from "node:path";
import pc from "picocolors";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import { opLabel } from "../../crash/describe.js";
import type { Trace } from "../../crash/model.js";
import { faultPicture } from "../../grading/crash-picture.js";
import { pictureSvg } from "../../report/html/picture-svg.js";
import type { CallsPicture } from "../../contract/picture.js";
import { pictureLines } from "../../report/picture-lines.js";
import { DiskFaults } from "../../sandbox/interposition/disk-faults.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import type { Fault, FaultPoint } from "../../sandbox/messages/scenario.js";
import { listDisk } from "../../sandbox/runtime/disk.js";
import { byteCounts } from "../../checks/disk-faults/fault-cases.js";
import { layScenario, recordingFs, scratchFolder } from "../support/model-fs.js";
import { NEW, TMP } from "../support/describe-cut.js";

const scratch = scratchFolder();
const OLD = '{"step":1}';
const CHECKPOINT = "@/work/checkpoint.json";
const FAULT_MARK = "test:the disk said no here";

type Calls = (f: typeof import("node:fs"), w: (rel: string) => string) => void;

/** The disk's faults, with a mark in the trace where the fault hit: before the faulted call's entry, if it has one. */
class MarkedFaults extends DiskFaults {
  private marked = false;
  constructor(private readonly rec: Recorder, fault?: Fault) {
    super(fault);
  }
  private mark<T>(outcome: T): T {
    if (!this.marked && this.report().injected) {
      this.marked = true;
      this.rec.mark(FAULT_MARK);
    }
    return outcome;
  }
  override write(api: string, file: string, length: number) {
    return this.mark(super.write(api, file, length));
  }
  override create(api: string, file: string, syscall: string, realPath: string) {
    return this.mark(super.create(api, file, syscall, realPath));
  }
  override fsync(api: string, file: string) {
    return this.mark(super.fsync(api, file));
  }
}

/** Records `calls` as one atomicCheckpoint over an old checkpoint, the disk saying no with `fault`: the trace without the oracle's mark, where it was, the fault points and the disk after. */
function record(calls: Calls, fault?: Fault) {
  const root = layScenario(scratch.fresh("fault"));
  const w = (rel: string) => path.join(root, "work", rel);
  const rec = new Recorder(root);
  const { fs: f } = recordingFs(rec);
  f.writeFileSync(w("checkpoint.json"), OLD);
  rec.mark("call:atomicCheckpoint");
  const windowStart = rec.trace().entries.length;
  const faults = new MarkedFaults(rec, fault);
  rec.faults = faults;
  try {
    calls(f, w);
  } catch {
    // The call threw: the disk said no, and it let the caller know.
  }
  rec.mark("return:atomicCheckpoint");
  faults.armed = false;
  const marked = rec.trace().entries;
  const markAt = marked.findIndex((e) => e.kind === "mark" && e.label === FAULT_MARK);
  const trace: Trace = { truncated: false, entries: marked.filter((_, i) => i !== markAt) };
  // The oracle: how many file-system calls of the window came before the fault.
  const before = markAt === -1 ? -1 : marked.slice(windowStart, markAt).filter((e) => e.kind !== "mark").length;
  return { trace, windowStart, before, points: faults.report().points, disk: listDisk(root) };
}

/** The picture of `calls` under `fault`, with the oracle's record of it. */
function drawn(calls: Calls, fault: Fault) {
  const faulted = record(calls, fault);
  const unfaulted = record(calls);
  const picture = faultPicture({ trace: faulted.trace, windowStart: faulted.windowStart, call: "atomicCheckpoint(path, NEW)", checkpoint: CHECKPOINT, disk: faulted.disk, fault, points: faulted.points, unfaulted: { trace: unfaulted.trace, windowStart: unfaulted.windowStart } });
  return { picture, ...faulted };
}

/** As the reference writes: a temp file written in a loop, fsynced, closed and renamed; on an error, closed and removed; then the folder fsynced. */
const reference: Calls = (f, w) => {
  const data = Buffer.from(NEW);
  let fd = f.openSync(w(TMP), "wx", 0o644);
  try {
    for (let off = 0; off < data.length; ) off += f.writeSync(fd, data, off, data.length - off);
    f.fsyncSync(fd);
    f.closeSync(fd);
    fd = -1;
    f.renameSync(w(TMP), w("checkpoint.json"));
  } catch (error) {
    if (fd !== -1) f.closeSync(fd);
    f.rmSync(w(TMP), { force: true });
    throw error;
  }
  const dir = f.openSync(w(""), "r");
  f.fsyncSync(dir);
  f.closeSync(dir);
};

/** Writes the state in two halves, each written once (a short write is not retried), then renames the temp file whatever happened. */
const careless: Calls = (f, w) => {
  const fd = f.openSync(w(TMP), "w");
  for (const half of [NEW.slice(0, 20), NEW.slice(20)]) {
    try {
      f.writeSync(fd, half);
    } catch {
      // ignored: the bug
    }
  }
  try {
    f.fsyncSync(fd);
  } catch {
    // ignored too
  }
  f.closeSync(fd);
  f.renameSync(w(TMP), w("checkpoint.json"));
};

/** Every fault the three disk-fault checks make at the points of `calls`, with the byte counts they try. */
function everyFault(calls: Calls): Fault[] {
  const points = record(calls).points;
  const of = (on: FaultPoint["on"]) => points.filter((p) => p.on === on);
  return [
    ...of("write").flatMap((p) => byteCounts(p.bytes!, [0.3], { withZero: false }).map((bytes): Fault => ({ kind: "short-write", index: p.index, bytes }))),
    ...of("write").flatMap((p) => byteCounts(p.bytes!, [0.3], { withZero: true }).map((bytes): Fault => ({ kind: "disk-full", on: "write", index: p.index, bytes }))),
    ...of("create").map((p): Fault => ({ kind: "disk-full", on: "create", index: p.index })),
    ...of("fsync").map((p): Fault => ({ kind: "failed-fsync", index: p.index })),
  ];
}

describe("the picture of a call on a disk that said no", () => {
  test.each([
    { name: "the reference", calls: reference },
    { name: "a write that ignores what the disk said", calls: careless },
  ])("$name, under every fault the checks make: the marked call is the one the fault hit, with what it wrote; every other call is the trace's, in order; the files are the real disk's", ({ calls }) => {
    const faults = everyFault(calls);
    expect(faults.map((f) => f.kind)).toEqual(expect.arrayContaining(["short-write", "disk-full", "failed-fsync"]));
    for (const fault of faults) {
      const { picture, trace, windowStart, before, points, disk } = drawn(calls, fault);
      const why = JSON.stringify(fault);
      expect(picture, why).not.toBeNull();
      const p = picture!;
      expect(before, why).toBeGreaterThanOrEqual(0);
      expect(p.cut.afterOps, why).toBe(before);
      expect(p.cut.how).toBe("fault");
      expect(p.cut.fault).toBe({ "short-write": "short write", "disk-full": "ENOSPC", "failed-fsync": "EIO" }[fault.kind]);
      const on = fault.kind === "failed-fsync" ? "fsync" : fault.kind === "disk-full" && fault.on === "create" ? "create" : "write";
      const point = points.find((q) => q.on === on && q.index === fault.index)!;
      const hit = p.ops[p.cut.afterOps]!;
      expect(hit.what, why).toMatch(new RegExp(`^${point.api}\\(`));
      if (on === "write") {
        expect(hit.bytes, why).toBe(point.bytes);
        expect(p.cut.written, why).toBe((fault as { bytes: number }).bytes);
      } else expect(p.cut.written, why).toBeUndefined();
      // The other calls are exactly those the trace holds, in order.
      const labels = trace.entries.flatMap((e, i) => (i >= windowStart && e.kind !== "mark" && e.kind !== "effect" ? [opLabel(trace, i)] : []));
      const recorded = labels.length === p.ops.length;
      expect(p.ops.filter((_, i) => recorded || i !== p.cut.afterOps).map((o) => o.what), why).toEqual(labels);
      expect(p.after.map((f) => `${f.name} ${f.bytes}`).sort(), why).toEqual(disk.map((f) => `${f.path.replace(TMP, ".checkpoint.json.*.*.tmp")} ${f.size}`).sort());
      expect(p.before).toEqual([{ name: "checkpoint.json", bytes: OLD.length, holds: "old", preview: { text: OLD } }]);
      const holds = Object.fromEntries(p.after.map((f) => [f.name, f.holds]));
      if (disk.some((f) => f.path === "checkpoint.json" && f.size === NEW.length)) expect(holds["checkpoint.json"], why).toBe("new");
    }
  });

  test("a fault that threw before the trace saw it, where other calls could have come before or after it, gives no picture", () => {
    // A full disk at the second new file: the rename and the unlink around it could be on either side.
    const calls: Calls = (f, w) => {
      f.writeFileSync(w("a.tmp"), NEW);
      f.renameSync(w("a.tmp"), w("b.tmp"));
      try {
        f.writeFileSync(w("c.tmp"), NEW);
      } finally {
        f.unlinkSync(w("b.tmp"));
      }
    };
    expect(drawn(calls, { kind: "disk-full", on: "create", index: 1 }).picture).toBeNull();
    // The same fault where nothing else ran around it is drawn.
    expect(drawn((f, w) => f.writeFileSync(w("c.tmp"), NEW), { kind: "disk-full", on: "create", index: 0 }).picture).not.toBeNull();
  });

  test("a listing that is not the model's disk (a file more, or another size) gives no picture", () => {
    const fault: Fault = { kind: "short-write", index: 0, bytes: 3 };
    const faulted = record(careless, fault);
    const unfaulted = record(careless);
    const draw = (disk: typeof faulted.disk) => faultPicture({ ...faulted, call: "c", checkpoint: CHECKPOINT, disk, fault, unfaulted });
    expect(draw(faulted.disk)).not.toBeNull();
    expect(draw([...faulted.disk, { path: "other.json", size: 3, preview: "abc" }])).toBeNull();
    expect(draw(faulted.disk.map((f) => ({ ...f, size: f.size + 1 })))).toBeNull();
  });
});

describe("a fault's picture in the terminal and in SVG", () => {
  const full = drawn(reference, { kind: "disk-full", on: "write", index: 0, bytes: 4 }).picture!;
  const many: CallsPicture = {
    kind: "calls",
    call: 'atomicCheckpoint(path, {"step":2,"notes":"a state long enough to be cut at forty columns"})',
    ops: [{ what: 'openSync(".checkpoint.json.*.*.tmp")' }, { what: 'writeSync(".checkpoint.json.*.*.tmp")', bytes: 1024 }, ...Array.from({ length: 14 }, (_, i) => ({ what: `unlinkSync("f${i}")` }))],
    cut: { afterOps: 1, written: 300, how: "fault", fault: "short write" },
    after: [{ name: "checkpoint.json", bytes: 10, holds: "old" }, { name: ".checkpoint.json.*.*.tmp", bytes: 300, holds: "torn" }, { name: "f", bytes: 1, holds: "other" }],
  };
  const fsync: CallsPicture = { ...many, ops: [{ what: 'fsyncSync(".checkpoint.json.*.*.tmp")' }], cut: { afterOps: 0, how: "fault", fault: "EIO" } };

  test.each([60, 80, 120])("at %i columns, with and without colour: no line wider than the terminal, at most 12 lines", (width) => {
    for (const color of [true, false])
      for (const picture of [full, many, fsync]) {
        const lines = pictureLines(picture, { width, indent: 6, c: pc.createColors(color) });
        expect(lines.length).toBeLessThanOrEqual(12);
        for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
      }
  });

  test("without colour: ✗ and what the disk said right under the faulted call, the calls after it as calls that ran, and the folder after the call", () => {
    const text = pictureLines(full, { width: 120, indent: 0, c: pc.createColors(false) }).join("\n");
    expect(text).toContain(`2 writeSync(".checkpoint.json.*.*.tmp") (${NEW.length} B)\n✗ ENOSPC: 4 of ${NEW.length} bytes written [#.........]\n3 closeSync(".checkpoint.json.*.*.tmp")`);
    expect(text).toContain("After the call: checkpoint.json (10 B): old state");
    expect(text).not.toMatch(/never made|killed|✂/);
    const long = pictureLines(many, { width: 80, indent: 0, c: pc.createColors(false) }).join("\n");
    expect(long).toMatch(/… \d+ calls more ran, to unlinkSync\("f13"\)/);
    expect(pictureLines(fsync, { width: 80, indent: 0, c: pc.createColors(false) }).join("\n")).toContain("✗ EIO: this call failed");
  });

  test("the SVG outlines the faulted call with its fault, bytes written and place as data-* attributes, draws no call as never run, and says it all in its text alternative", () => {
    const svg = pictureSvg(full);
    expect(svg).toMatch(new RegExp(`<g class="op fault" data-op-index="${full.cut.afterOps}"`));
    expect(svg).toContain(`<g class="fault-mark" data-fault="ENOSPC" data-after-ops="${full.cut.afterOps}" data-written="4">`);
    expect(svg).not.toContain("not-run");
    expect(svg).not.toContain('class="cut"');
    expect(svg).toContain("The folder after the call:");
    expect(svg).toContain(`The disk said no at call 2 (writeSync(&quot;.checkpoint.json.*.*.tmp&quot;)): ENOSPC: 4 of ${NEW.length} bytes written. The calls after it ran.`);
    expect(pictureSvg(fsync)).toContain('<g class="fault-mark" data-fault="EIO" data-after-ops="0">');
  });
});
