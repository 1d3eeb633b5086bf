// The picture of one crash inside a call (contract/picture.ts, kind "calls"), made from the same
// trace and cut as the crash's story: the call's file-system calls in order, where the crash fell,
// each file the crash left with what it holds, and the folder as the call found it. What a file holds is read from the crash
// model's disk (crash/power-model.ts), then checked against the listing of the real disk the
// story tells: when the two disagree on any name or size, there is no picture rather than a wrong one.
// A disk that said no inside the call (disk-faults) is drawn the same way from the faulted call's
// own trace: the call the fault hit is marked, the calls after it ran, and the folder is the one after the call.
import { isCommandOp } from "../crash/commands.js";
import { opFacts, opLabel } from "../crash/describe.js";
import type { Cut, DiskEntry, FsOp, Trace } from "../crash/model.js";
import { normaliseName } from "../crash/names.js";
import { modelAt, powerImage } from "../crash/power-loss.js";
import type { PowerModel } from "../crash/power-model.js";
import { onDisk, type PowerNode } from "../crash/power-nodes.js";
import { displayPath, opensToCreate } from "../crash/trace.js";
import { filePreview, showsPreview, type CallsPicture, type PictureFile } from "../contract/picture.js";
import type { Fault, FaultPoint } from "../sandbox/messages/scenario.js";

/** Calls kept whole around the crash, and at each end, when a call made more than fit a picture. */
const NEAR_CUT = 8;
const AT_ENDS = 3;

/** The call a picture is drawn of: where it is in its trace, how the story names it, and the disk the story lists after it. */
interface CallWindow {
  trace: Trace;
  /** Where the call's entries begin in the trace (its start mark). */
  windowStart: number;
  /** The call as the story names it: "atomicCheckpoint(path, {\"step\":2})". */
  call: string;
  /** The checkpoint as the trace stores it ("@/work/checkpoint.json"): its bytes before and after the call are "old" and "new". */
  checkpoint: string;
  /** The real disk after the crash (or after the call), as the story lists it. */
  disk: DiskEntry[];
}

/** What a crash's picture is drawn from: the call, and where the crash cut it. */
export interface CrashPictureInput extends CallWindow {
  cut: Cut;
}

/** The picture of a crash at `cut` inside the call that starts at `windowStart`; null when the model's disk is not the listed one. */
export function crashPicture(input: CrashPictureInput): CallsPicture | null {
  const { trace, cut, windowStart } = input;
  const windowEnd = endOf(trace, windowStart);
  const indexes = opIndexes(trace, windowStart, windowEnd);
  const ops = indexes.map((i) => pictureOp(trace, i));
  const next = fileBytes(modelAt(trace, { at: windowEnd }), input.checkpoint);
  const how = cut.power ? "power cut" : "killed";
  return framed(input, { ops, afterOps: indexes.filter((i) => i < cut.at).length, files: cut, next, cut: { ...(cut.bytes !== undefined ? { written: cut.bytes } : {}), how } });
}

/** What a fault's picture is drawn from: the call, the fault and the points it was counted among, and the same call on a disk that said yes. */
export interface FaultPictureInput extends CallWindow {
  /** The fault the disk made inside the call, and every fault point the call met, in order (the sandbox's fault report). */
  fault: Fault;
  points: FaultPoint[];
  /** The same call recorded on a disk that said yes, from its start mark: the checkpoint it leaves is the new state. */
  unfaulted: { trace: Trace; windowStart: number };
}

/**
 * The picture of a call on a disk that said no: its calls, the one the fault hit marked (a call
 * that threw before the recorder saw it is put where the trace says it was made), the calls after
 * it, and the folder after the call. Null when the trace cannot say for sure which call the fault
 * hit, or the model's disk is not the listed one.
 */
export function faultPicture(input: FaultPictureInput): CallsPicture | null {
  const { trace, windowStart, fault } = input;
  const windowEnd = endOf(trace, windowStart);
  const indexes = opIndexes(trace, windowStart, windowEnd);
  const hit = locateFault(trace, windowStart, indexes, fault, input.points);
  if (!hit) return null;
  const ops: CallsPicture["ops"] = indexes.map((i) => pictureOp(trace, i));
  const faulted = { ...(hit.recorded ? ops[hit.at]! : unrecordedOp(hit.point)), ...(hit.point.on === "write" ? { bytes: hit.point.bytes! } : {}) };
  ops.splice(hit.at, hit.recorded ? 1 : 0, faulted);
  const written = writtenBy(fault);
  const { unfaulted } = input;
  const next = fileBytes(modelAt(unfaulted.trace, { at: endOf(unfaulted.trace, unfaulted.windowStart) }), input.checkpoint);
  // The folder is drawn as the process saw it, as the story lists it: the model would write a failed fsync's losses out.
  const seen = { ...trace, entries: trace.entries.map((e) => (e.kind === "fsync" && e.failed ? { kind: "mark" as const, label: "failed fsync" } : e)) };
  return framed({ ...input, trace: seen }, { ops, afterOps: hit.at, files: { at: windowEnd }, next, cut: { ...(written !== undefined ? { written } : {}), how: "fault", fault: FAULT_NAMES[fault.kind] } });
}

/** How many bytes a fault at a write let it write; undefined for a fault at anything else. */
function writtenBy(fault: Fault): number | undefined {
  return fault.kind === "short-write" || (fault.kind === "disk-full" && fault.on === "write") ? fault.bytes : undefined;
}

/** How a picture names each fault. */
const FAULT_NAMES: Record<Fault["kind"], string> = { "short-write": "short write", "disk-full": "ENOSPC", "failed-fsync": "EIO" };

/** The calls, the cut and the folders of a picture, once the folder drawn is checked against the listed one; null when they differ. */
function framed(
  input: CallWindow,
  drawn: { ops: CallsPicture["ops"]; afterOps: number; files: Cut; next?: Buffer; cut: Omit<CallsPicture["cut"], "afterOps"> },
): CallsPicture | null {
  const { trace, windowStart } = input;
  const old = fileBytes(modelAt(trace, { at: windowStart }), input.checkpoint);
  const file = ([name, data]: [string, Buffer]) => pictureFile(name, data, { old, next: drawn.next });
  const after = filesAfter(trace, drawn.files).map(file);
  const listed = input.disk.map((f) => `${normaliseName(f.path)} ${f.size}`).sort();
  if (JSON.stringify(after.map((f) => `${f.name} ${f.bytes}`).sort()) !== JSON.stringify(listed)) return null;
  const elided = elide(drawn.ops, drawn.afterOps);
  const before = filesAfter(trace, { at: windowStart }).map(file);
  return { kind: "calls", call: input.call, ops: elided.ops, cut: { afterOps: elided.afterOps, ...drawn.cut }, after, before };
}

/** Where the call that starts at `windowStart` ends: where it returned (or threw), or with the trace, when it never did. */
function endOf(trace: Trace, windowStart: number): number {
  const returned = trace.entries.findIndex((e, i) => i > windowStart && e.kind === "mark" && e.label.startsWith("return:"));
  return returned === -1 ? trace.entries.length : returned;
}

/** The indexes of the file-system calls between `from` and `to`. */
function opIndexes(trace: Trace, from: number, to: number): number[] {
  return trace.entries.flatMap((e, i) => (i >= from && i < to && e.kind !== "mark" && e.kind !== "effect" ? [i] : []));
}

function writeBytes(entry: Trace["entries"][number]): { bytes?: number } {
  return entry.kind === "write" ? { bytes: entry.bytes.byteLength } : {};
}

/** Which kind of fault point each of `indexes` was (sandbox/interposition/disk-faults.ts counts them so), or null for a call the disk could not fail. */
function pointKinds(trace: Trace, windowStart: number, indexes: number[]): (FaultPoint["on"] | null)[] {
  const model = modelAt(trace, { at: windowStart });
  let applied = windowStart;
  return indexes.map((i) => {
    while (applied < i) model.apply(trace.entries[applied++]!);
    const e = trace.entries[i] as FsOp;
    if (isCommandOp(e)) return null;
    if (e.kind === "write") return e.bytes.byteLength > 0 ? "write" : null;
    if (e.kind === "fsync") return "fsync";
    if (e.kind === "mkdir" || e.kind === "symlink" || e.kind === "link") return "create";
    // Only an open that makes a file that was not there takes space.
    return e.kind === "open" && opensToCreate(e.flags) && model.nodeAt(e.path) === undefined ? "create" : null;
  });
}

/**
 * Where among the window's calls the fault hit: `at`, the faulted call's place, when the trace
 * holds it (a short write, a write the full disk let part of in, a failed fsync); else where it
 * goes, the one place that has every fault point before it and none after it of those a full
 * disk fails (a write must also be where its file is open). Null when the trace cannot say.
 */
function locateFault(trace: Trace, windowStart: number, indexes: number[], fault: Fault, points: FaultPoint[]): { at: number; recorded: boolean; point: FaultPoint } | null {
  const on = fault.kind === "failed-fsync" ? "fsync" : fault.kind === "disk-full" && fault.on === "create" ? "create" : "write";
  const point = points.find((p) => p.on === on && p.index === fault.index);
  if (!point) return null;
  const kinds = pointKinds(trace, windowStart, indexes);
  // The recorder saw the call the fault hit when it did something: wrote some bytes, or failed to sync.
  if (fault.kind === "failed-fsync" || (writtenBy(fault) ?? 0) > 0) {
    const at = kinds.flatMap((k, j) => (k === on ? [j] : []))[fault.index];
    const e = at === undefined ? undefined : (trace.entries[indexes[at]!] as FsOp);
    const same = e?.kind === "fsync" ? e.failed === true : e?.kind === "write" && e.bytes.byteLength === writtenBy(fault);
    return at !== undefined && same ? { at, recorded: true, point } : null;
  }
  const earlier = points.slice(0, points.indexOf(point));
  const want = (kind: FaultPoint["on"]) => earlier.filter((p) => p.on === kind).length;
  const seen = (kind: FaultPoint["on"], upTo: number) => kinds.slice(0, upTo).filter((k) => k === kind).length;
  // The disk is full from the fault on: every write and new file after it failed, and none is in the trace.
  if (seen("write", kinds.length) !== want("write") || seen("create", kinds.length) !== want("create")) return null;
  const places = Array.from({ length: indexes.length + 1 }, (_, p) => p).filter(
    (p) => seen("write", p) === want("write") && seen("create", p) === want("create") && seen("fsync", p) === want("fsync") && (on !== "write" || openAt(trace, indexes.slice(0, p), point.file)),
  );
  return places.length === 1 ? { at: places[0]!, recorded: false, point } : null;
}

/** Whether, after the calls `indexes`, a descriptor opened on `file` is still open. */
function openAt(trace: Trace, indexes: number[], file: string): boolean {
  const open = new Set<number>();
  for (const i of indexes) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && e.path === file) open.add(e.fd);
    else if (e.kind === "close") open.delete(e.fd);
  }
  return open.size > 0;
}

/** A call that threw before the recorder saw it, as a picture op, labelled as opLabel labels a recorded one: "writeSync(\".checkpoint.json.*.tmp\")". */
function unrecordedOp(point: FaultPoint): CallsPicture["ops"][number] {
  const kind = point.on === "write" ? "write" : /^mkd/i.test(point.api) ? "mkdir" : /^symlink/i.test(point.api) ? "symlink" : /^link/i.test(point.api) ? "link" : "open";
  const touched = point.file === "@/work" ? "the folder" : normaliseName(displayPath(point.file));
  const file = point.file === "@/work" ? "the folder" : JSON.stringify(touched);
  return { what: `${point.api}(${file})${point.api.toLowerCase().startsWith(kind) ? "" : `: ${kind}`}`, kind, touched };
}

/** Trace entry `index` as a picture's op: its label, its kind and the file it touched, and a write's bytes. */
function pictureOp(trace: Trace, index: number): CallsPicture["ops"][number] {
  return { what: opLabel(trace, index), ...opFacts(trace, index), ...writeBytes(trace.entries[index]!) };
}

/** Each file under the scenario's work and temp folders after the cut, named as a listing names it, with its bytes. */
export function filesAfter(trace: Trace, cut: Cut): [string, Buffer][] {
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

/** The bytes the model's file `stored` ("@/work/checkpoint.json") holds, written out; undefined when it is not a file. */
export function fileBytes(model: PowerModel, stored: string): Buffer | undefined {
  const node = model.nodeAt(stored);
  return node?.kind === "file" ? onDisk(node) : undefined;
}

/** A file of the folder as drawn: its name, size, what it holds (of the checkpoint's bytes before the call and after it) and a preview of its bytes, unless it is one of git's binary files. */
export function pictureFile(name: string, data: Buffer, states: { old?: Buffer; next?: Buffer }): PictureFile {
  const { holds, whole } = holdsOf(data, states);
  const drawn: PictureFile = { name, bytes: data.length, holds };
  return showsPreview(name) ? { ...drawn, preview: filePreview(data, holds === "torn" ? whole : undefined) } : drawn;
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
