// Actor mode: the host runs as one of several real processes that use the same checkpoint at
// once (writers, a reader). Each call runs in a fresh module instance with this process's own
// id. In a gated call, every file-system operation first tells the grader what it is about to
// do and waits for its turn, so the grader, not timing, chooses how the processes interleave.
import fs from "node:fs";
import path from "node:path";
import { attrWord, flagNames, inScenario, opensForChange } from "../../crash/trace.js";
import type { FsOp } from "../../crash/model.js";
import { resolveArgs, runCall } from "./target/call.js";
import { scrubPaths } from "../messages/paths.js";
import { CompiledTarget } from "./target/instance.js";
import { LAB_SPECIFIER, labModule } from "./target/lab-module.js";
import { ACTOR_IN_FD } from "../messages/launch.js";
import { EVERY_NAME, type ActorCall, type ActorConfig, type Footprint, type PendingOp, type StepDid } from "../messages/actor.js";
import { Recorder } from "../interposition/recorder.js";
import { PendingOps, createRecordingFs } from "../interposition/recording-fs.js";
import { createRecordingChildProcess } from "../interposition/recording-exec.js";
import { LineReader, report } from "./pipes.js";
import { silenceTarget } from "./silence.js";

/** Serves calls until the grader closes the command pipe. */
export async function runActor(config: ActorConfig, guard: () => void): Promise<void> {
  guard();
  silenceTarget();
  report({ pid: process.pid });
  const target = new CompiledTarget(config.bundle, config.targetDir, path.join(config.targetDir, config.entry));
  const input = new LineReader(ACTOR_IN_FD);
  for (let line = input.next(); line !== null; line = input.next()) {
    const call = JSON.parse(line) as ActorCall;
    report({ done: await runOne(target, call, input) });
  }
  process.exit(0);
}

/** One call in a fresh instance, over the scenario folder `call.root`. */
async function runOne(target: CompiledTarget, call: ActorCall, input: LineReader) {
  const pending = new PendingOps();
  const gate = call.gated ? new Gate(call.root, input) : undefined;
  const recorder = new GateRecorder(call.root, gate);
  recorder.callerOf = target.frames.callerHook();
  const recordingFs = createRecordingFs(() => recorder, pending);
  // A program the writer runs is one turn of its own: the grader cannot see inside it, so it may
  // touch any name, and it runs whole in its turn (the reader loads before and after it).
  const childProcess = createRecordingChildProcess(() => recorder, {
    beforeCommand: (command) => {
      // Ungated too (the reader's loads): a call that ran a program may have changed any name.
      const footprint = recorder.touchEverything();
      gate?.wait({ what: `runs \`${command}\``, did: { kind: "run", touched: command.split(" ").filter((w) => /[.*]/.test(w)).at(-1) } }, footprint, null);
    },
  });
  process.chdir(path.join(call.root, "cwd"));
  process.env.TMPDIR = path.join(call.root, "tmp");
  process.env.HOME = path.join(call.root, "cwd");
  const lab = labModule(() => {}, () => process.pid);
  let exports: Record<string, unknown> | Error;
  const restoreClock = call.clockMs === undefined ? () => {} : virtualClock(call.clockMs);
  let result;
  try {
    try {
      exports = target.instantiate({ fs: recordingFs, childProcess, provided: { [LAB_SPECIFIER]: lab }, pid: process.pid, livePids: call.livePids, random: call.randomSeed });
    } catch (error) {
      exports = error instanceof Error ? error : new Error(String(error));
    }
    result = runCall(exports, call.name, resolveArgs(call.args, call.root), { root: call.root, limitMs: call.limitMs, frames: (e) => target.frames.of(e) });
  } finally {
    restoreClock();
  }
  await pending.settle();
  recorder.closeLeftovers();
  const granted = gate?.takeGranted();
  return { result, lastFailed: gate?.lastFailed() ?? false, ...(granted ? { granted } : {}), touched: recorder.touched() };
}

/** Keeps track of what each descriptor names, so an operation on it can say which file it touches. */
/** A descriptor's file as it is now: its names (the one it was opened at when it is not found), and whether it has none left. */
interface FileNow {
  names: string[];
  nameless: boolean;
}

class GateRecorder extends Recorder {
  private readonly names = new Map<number, string>();
  pushed: FsOp | null = null;

  private readonly reads = new Set<string>();
  private readonly writes = new Set<string>();

  constructor(root: string, gate?: Gate) {
    super(root, {
      beforeOp: (op) => {
        const { footprint, ...said } = this.announce(op);
        // Told again when its turn comes: by then another writer may have renamed its file.
        gate?.wait(said, footprint, op, () => this.announce(op));
      },
      keep: false,
    });
    gate?.attach(this);
    // Reads wait their turn too: what a writer reads (a lock, a listing) may depend on the order.
    this.beforeRead = (api, name) => {
      const listing = api === "readdirSync" || api === "opendirSync";
      const footprint = this.touch({ reads: [listing ? `${name}/*` : name], writes: [] });
      gate?.wait({ what: `${api} ${listing ? "lists" : "reads"} ${show(name)}`, did: { kind: listing ? "list" : "read", touched: named(name) } }, footprint, null);
    };
  }

  /** Every name the call read or changed so far. */
  touched(): Footprint {
    return { reads: [...this.reads], writes: [...this.writes] };
  }

  /** A turn that may read or change any name (a program the writer runs). */
  touchEverything(): Footprint {
    return this.touch({ reads: [], writes: [EVERY_NAME] });
  }

  private touch(footprint: Footprint): Footprint {
    for (const name of footprint.reads) this.reads.add(name);
    for (const name of footprint.writes) this.writes.add(name);
    return footprint;
  }

  override push(entry: Parameters<Recorder["push"]>[0]): void {
    if (entry.kind === "open") this.names.set(entry.fd, entry.path);
    // A file renamed by this process keeps its descriptors: they now name the new path.
    if (entry.kind === "rename") for (const [id, name] of this.names) if (name === entry.from) this.names.set(id, entry.to);
    if (entry.kind !== "mark" && entry.kind !== "effect") this.pushed = entry;
  }

  /**
   * The names a descriptor's file has now, and whether it has none left. Another process may have
   * renamed it since it was opened (a temp name two writers share, renamed over the checkpoint by
   * one of them): a write through it then changes the file under its new name, and a reader of
   * that name must look again. The file is found by its inode in the folder it was opened in; when
   * it is not there (moved elsewhere, or removed), the name it was opened at stands for it.
   */
  private fileNow(id: number): FileNow {
    const opened = this.names.get(id);
    const real = this.realFdOf(id);
    let file: fs.Stats | undefined;
    try {
      if (real !== undefined) file = fs.fstatSync(real);
    } catch {
      // A descriptor the process no longer has: the name it was opened at stands for it.
    }
    const asOpened: FileNow = { names: [opened ?? `fd:${id}`], nameless: file?.nlink === 0 };
    if (opened === undefined || file === undefined || !opened.startsWith("@")) return asOpened;
    try {
      const folder = path.dirname(inScenario(this.root, opened));
      const same = fs.readdirSync(folder).filter((name) => {
        try {
          const other = fs.lstatSync(path.join(folder, name));
          return other.ino === file.ino && other.dev === file.dev;
        } catch {
          return false;
        }
      });
      return same.length > 0 ? { names: same.map((name) => this.store(path.join(folder, name))), nameless: false } : asOpened;
    } catch {
      return asOpened;
    }
  }

  /** An operation as the grader is told of it now: in words, and the names it touches (noted as touched). The file is looked at once. */
  private announce(op: FsOp): PendingOp {
    const now = "fd" in op && op.fd !== undefined ? { id: op.fd, file: this.fileNow(op.fd) } : null;
    const fileOf = (id: number) => (now?.id === id ? now.file : this.fileNow(id));
    return { ...this.describe(op, fileOf), footprint: this.touch(this.footprint(op, (id) => fileOf(id).names)) };
  }

  /** The names an operation reads or changes; a descriptor stands for `named(id)`, the names its file has now. */
  private footprint(op: FsOp, named: (id: number) => string[]): Footprint {
    switch (op.kind) {
      case "open":
        return opensForChange(op.flags) ? { reads: [], writes: [op.path] } : { reads: [op.path], writes: [] };
      case "write":
      case "ftruncate":
        return { reads: [], writes: named(op.fd) };
      case "fsync":
      case "close":
        return { reads: named(op.fd), writes: [] };
      case "rename":
        return { reads: [], writes: [op.from, op.to] };
      case "link":
        return { reads: [op.from], writes: [op.to] };
      case "attr":
        return { reads: [], writes: op.path ? [op.path] : named(op.fd!) };
      default:
        return { reads: [], writes: [op.path] };
    }
  }

  /** An operation in words for stories, and as data (StepDid). */
  private describe(op: FsOp, fileOf: (id: number) => FileNow): Said {
    // A descriptor whose file was renamed (by another process, usually) is told under the name the file has now.
    // One whose every name was removed since is told under the name it was opened at, and said to have none now.
    const fd = (id: number): { words: string; touched?: string; since?: StepDid["since"] } => {
      const opened = this.names.get(id) ?? `descriptor ${id}`;
      const file = fileOf(id);
      const now = file.names.filter((name) => name !== opened);
      if (now.length > 0) return { words: `${show(now[0]!)} (opened as ${show(opened)}, renamed since)`, touched: named(now[0]!), since: "renamed since" };
      if (file.nameless) return { words: `${show(opened)} (removed since: the file has no name now)`, touched: named(opened), since: "removed since" };
      return { words: show(opened), touched: named(opened) };
    };
    const onPath = (kind: string, what: string, path: string): Said => ({ what, did: { kind, ...(named(path) !== undefined ? { touched: named(path) } : {}) } });
    const onFd = (kind: string, what: (words: string) => string, id: number): Said => {
      const { words, touched, since } = fd(id);
      return { what: what(words), did: { kind, ...(touched !== undefined ? { touched } : {}), ...(since ? { since } : {}) } };
    };
    switch (op.kind) {
      case "open":
        return onPath("open", `${op.api} opens ${show(op.path)} (${typeof op.flags === "number" ? flagNames(op.flags) : op.flags})`, op.path);
      case "write":
        return onFd("write", (file) => `${op.api} writes ${op.bytes.byteLength} byte${op.bytes.byteLength === 1 ? "" : "s"} to ${file}`, op.fd);
      case "ftruncate":
        return onFd("truncate", (file) => `${op.api} truncates ${file} to ${op.length} bytes`, op.fd);
      case "truncate":
        return onPath("truncate", `${op.api} truncates ${show(op.path)} to ${op.length} bytes`, op.path);
      case "fsync":
        return onFd("fsync", (file) => `${op.api} fsyncs ${file}`, op.fd);
      case "close":
        return onFd("close", (file) => `${op.api} closes ${file}`, op.fd);
      case "rename":
        return onPath("rename", `${op.api} renames ${show(op.from)} to ${show(op.to)}`, op.to);
      case "link":
        return onPath("link", `${op.api} links ${show(op.from)} as ${show(op.to)}`, op.to);
      case "symlink":
        return onPath("make", `${op.api} makes a symlink ${show(op.path)}`, op.path);
      case "attr":
        return op.path ? onPath("change", `${op.api} changes the ${attrWord(op.call)} of ${show(op.path)}`, op.path) : onFd("change", (file) => `${op.api} changes the ${attrWord(op.call)} of ${file}`, op.fd!);
      default:
        return onPath(op.kind === "mkdir" ? "make" : "remove", `${op.api} ${op.kind === "mkdir" ? "makes" : "removes"} ${show(op.path)}`, op.path);
    }
  }
}

/** An operation as the grader is told of it: in words, and as data. */
type Said = Pick<PendingOp, "what" | "did">;

/** A stored path as StepDid names the file it touches: as `show` names it, and none for the checkpoint's folder. */
function named(name: string): string | undefined {
  return /^@\/work\/?$/.test(name) ? undefined : show(name);
}

/** A stored path as the student knows it ("@/work/checkpoint.json" is "checkpoint.json", "@/work" the checkpoint's folder). */
export function show(name: string): string {
  // The folder itself has no name the student gave it: "work" is the grader's.
  if (/^@\/work\/?$/.test(name)) return "the checkpoint's folder";
  return name.replace(/^@\/(work\/)?/, "");
}

/** Before each operation: tell the grader what it is, then wait for the grader's go. */
class Gate {
  private recorder!: GateRecorder;
  private waiting: FsOp | null = null;
  private granted: PendingOp | undefined;

  constructor(private readonly root: string, private readonly input: LineReader) {}

  attach(recorder: GateRecorder): void {
    this.recorder = recorder;
  }

  /**
   * Announces an operation and waits for its turn. `op` is null for a call that only reads (it
   * cannot fail the way a change can); `now` tells the operation again once its turn came.
   */
  wait(said: Said, footprint: Footprint, op: FsOp | null, now?: () => PendingOp): void {
    const lastFailed = this.lastFailed();
    const granted = this.takeGranted();
    this.waiting = op;
    this.recorder.pushed = null;
    report({ op: { ...this.scrubbed(said), footprint }, lastFailed, ...(granted ? { granted } : {}) });
    if (this.input.next() === null) process.exit(0); // the grader is gone
    const then = now?.();
    if (then && (then.what !== said.what || JSON.stringify(then.footprint) !== JSON.stringify(footprint))) this.granted = { ...this.scrubbed(then), footprint: then.footprint };
  }

  /** An operation's words and data with the machine's paths hidden, as every message to the grader has them. */
  private scrubbed(said: Said): Said {
    const { touched, ...did } = said.did;
    return { what: scrubPaths(said.what, this.root), did: { ...did, ...(touched !== undefined ? { touched: scrubPaths(touched, this.root) } : {}) } };
  }

  /** The operation let through last as it was when it ran, once, when it differs from how it was announced. */
  takeGranted(): PendingOp | undefined {
    const granted = this.granted;
    this.granted = undefined;
    return granted;
  }

  /** True when the operation let through last did not complete (it threw). */
  lastFailed(): boolean {
    const failed = this.waiting !== null && this.recorder.pushed === null;
    this.waiting = null;
    return failed;
  }
}

/**
 * Makes `Date.now()` and `new Date()` start at `startMs` and advance by 1 ms every 1,000 readings,
 * the same in every writer: writers that name files after the time do it at the same millisecond,
 * as processes started together may, and the outcome never depends on the machine's speed.
 */
function virtualClock(startMs: number): () => void {
  const RealDate = Date;
  let readings = 0;
  const now = () => startMs + Math.floor(readings++ / 1000);
  const VirtualDate = function (this: unknown, ...args: unknown[]) {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new (RealDate as any)(...args);
  } as unknown as DateConstructor;
  Object.setPrototypeOf(VirtualDate, RealDate);
  Object.defineProperty(VirtualDate, "prototype", { value: RealDate.prototype });
  (VirtualDate as { now: () => number }).now = now;
  globalThis.Date = VirtualDate;
  return () => {
    globalThis.Date = RealDate;
  };
}
