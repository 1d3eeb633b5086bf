// The picture of one crash inside a call (report/picture.ts, kind "calls"), made from the same
// trace and cut as the crash's story: the call's file-system calls in order, where the crash fell,
// each file the crash left with what it holds, and the folder as the call found it. What a file holds is read from the crash
// model's disk (crash/power-model.ts), then checked against the listing of the real disk the
// story tells: when the two disagree on any name or size, there is no picture rather than a wrong one.
import { opLabel } from "../crash/describe.js";
import type { Cut, DiskEntry, FsOp, Trace } from "../crash/model.js";
import { normaliseName } from "../crash/names.js";
import { modelAt, powerImage } from "../crash/power-loss.js";
import type { PowerModel } from "../crash/power-model.js";
import { onDisk, type PowerNode } from "../crash/power-nodes.js";
import { filePreview, type CallsPicture, type PictureFile } from "../report/picture.js";

/** Calls kept whole around the crash, and at each end, when a call made more than fit a picture. */
const NEAR_CUT = 8;
const AT_ENDS = 3;

export interface CrashPictureInput {
  trace: Trace;
  cut: Cut;
  /** Where the crashed call's entries begin in the trace (its start mark). */
  windowStart: number;
  /** The call as the story names it: "atomicCheckpoint(path, {\"step\":2})". */
  call: string;
  /** The checkpoint as the trace stores it ("@/work/checkpoint.json"): its bytes before and after the call are "old" and "new". */
  checkpoint: string;
  /** The real disk after the crash, as the story lists it. */
  disk: DiskEntry[];
}

/** The picture of a crash at `cut` inside the call that starts at `windowStart`; null when the model's disk is not the listed one. */
export function crashPicture(input: CrashPictureInput): CallsPicture | null {
  const { trace, cut, windowStart } = input;
  // The call's entries end where it returned (or with the trace, when it never did).
  const returned = trace.entries.findIndex((e, i) => i > windowStart && e.kind === "mark" && e.label.startsWith("return:"));
  const windowEnd = returned === -1 ? trace.entries.length : returned;
  const indexes = trace.entries.flatMap((e, i) => (i >= windowStart && i < windowEnd && e.kind !== "mark" && e.kind !== "effect" ? [i] : []));
  const afterOps = indexes.filter((i) => i < cut.at).length;
  const ops = indexes.map((i) => {
    const e = trace.entries[i] as FsOp;
    return { what: opLabel(trace, i), ...(e.kind === "write" ? { bytes: e.bytes.byteLength } : {}) };
  });
  const old = fileBytes(modelAt(trace, { at: windowStart }), input.checkpoint);
  const next = fileBytes(modelAt(trace, { at: windowEnd }), input.checkpoint);
  const file = ([name, data]: [string, Buffer]) => pictureFile(name, data, { old, next });
  const after = filesAfter(trace, cut).map(file);
  const listed = input.disk.map((f) => `${normaliseName(f.path)} ${f.size}`).sort();
  if (JSON.stringify(after.map((f) => `${f.name} ${f.bytes}`).sort()) !== JSON.stringify(listed)) return null;
  const elided = elide(ops, afterOps);
  const before = filesAfter(trace, { at: windowStart }).map(file);
  return { kind: "calls", call: input.call, ops: elided.ops, cut: { afterOps: elided.afterOps, ...(cut.bytes !== undefined ? { written: cut.bytes } : {}), how: cut.power ? "power cut" : "killed" }, after, before };
}

/** Each file under the scenario's work and temp folders after the cut, named as a listing names it, with its bytes. */
function filesAfter(trace: Trace, cut: Cut): [string, Buffer][] {
  const model = modelAt(trace, cut);
  if (cut.bytes !== undefined) {
    const write = trace.entries[cut.at] as Extract<FsOp, { kind: "write" }>;
    model.apply({ ...write, bytes: write.bytes.subarray(0, cut.bytes) });
  }
  const tree: Map<string, PowerNode> = cut.power ? powerImage(model, cut.power) : model.tree({ durable: false });
  return [...tree].flatMap(([stored, node]): [string, Buffer][] => {
    if (node.kind !== "file") return [];
    const shown = stored.startsWith("@/work/") ? stored.slice("@/work/".length) : stored.startsWith("@/tmp/") ? `$TMPDIR/${stored.slice("@/tmp/".length)}` : null;
    // A power image holds each file's surviving bytes as its data; the model now, what writing it out gives.
    return shown === null ? [] : [[normaliseName(shown), cut.power ? node.data : onDisk(node)]];
  });
}

function fileBytes(model: PowerModel, stored: string): Buffer | undefined {
  const node = model.nodeAt(stored);
  return node?.kind === "file" ? onDisk(node) : undefined;
}

/** A file of the folder as drawn: its name, size, what it holds (of the checkpoint's bytes before the call and after it) and a preview of its bytes. */
function pictureFile(name: string, data: Buffer, states: { old?: Buffer; next?: Buffer }): PictureFile {
  const { holds, whole } = holdsOf(data, states);
  return { name, bytes: data.length, holds, preview: filePreview(data, holds === "torn" ? whole : undefined) };
}

/** What `data` holds: the checkpoint's bytes before the call, after it, a beginning of either (and which), nothing, or something else. */
function holdsOf(data: Buffer, { old, next }: { old?: Buffer; next?: Buffer }): { holds: PictureFile["holds"]; whole?: Buffer } {
  if (data.length === 0) return { holds: "empty" };
  if (old?.equals(data)) return { holds: "old" };
  if (next?.equals(data)) return { holds: "new" };
  const startOf = (whole?: Buffer) => whole !== undefined && whole.length > data.length && whole.subarray(0, data.length).equals(data);
  if (startOf(next)) return { holds: "torn", whole: next };
  return startOf(old) ? { holds: "torn", whole: old } : { holds: "other" };
}

/** `ops` with long runs far from the crash (after the first `afterOps`) shown as one gap each. */
function elide(ops: CallsPicture["ops"], afterOps: number): { ops: CallsPicture["ops"]; afterOps: number } {
  const keep = (i: number) => i < AT_ENDS || i >= ops.length - AT_ENDS || Math.abs(i - afterOps) <= NEAR_CUT;
  const out: CallsPicture["ops"] = [];
  let shownBefore = afterOps;
  for (let i = 0; i < ops.length; ) {
    if (keep(i)) {
      out.push(ops[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < ops.length && !keep(j)) j++;
    out.push({ what: "", skipped: j - i });
    if (j <= afterOps) shownBefore -= j - i - 1;
    i = j;
  }
  return { ops: out, afterOps: shownBefore };
}
