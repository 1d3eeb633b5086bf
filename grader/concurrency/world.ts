// One run of several writers saving the same checkpoint at once while a reader loads it. Each
// writer and the reader is a real process of its own (its own process id); every file-system
// operation of a writer waits for its turn, and `choose` picks whose turn it is, so an order is
// a list of choices and the same choices give the same run. The reader loads after every step
// that changes a name.
import type { UserLease } from "../sandbox/identity/target-user.js";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadWrong, noCheckpoint, type Expected } from "../grading/calls.js";
import type { JsonState } from "../grading/states.js";
import type { RunWent, RunWrong, SaveEnded } from "../contract/finding.js";
import { writerName } from "../report/run-story.js";
import type { Chooser, Execution, LoadSeen } from "./explore.js";
import { conflict, type Step } from "./footprint.js";
import type { Actor, ActorEvent } from "../sandbox/supervisor/actor-client.js";
import type { Footprint, PendingOp } from "../sandbox/messages/actor.js";
import type { Limits } from "../sandbox/messages/limits.js";
import { clip } from "../sandbox/runtime/target/call.js";
import { seedOf } from "../sandbox/runtime/target/random-streams.js";

export const CHECKPOINT_NAME = "checkpoint.json";
const CHECKPOINT = { $path: `work/${CHECKPOINT_NAME}` };

/** What is on disk before the writers start, and what each writer saves. */
export interface Setup {
  /** The checkpoint already there (written by the grader), or absent. */
  old: { state: JsonState } | null;
  /** One state per writer (writer A saves the first). */
  states: JsonState[];
}

/**
 * The most operations one run may make: writers that never finish are waiting on each other. Far
 * above what correct writers make (three 300 KiB states written 128 bytes at a time take 7,500).
 */
export const MAX_STEPS = 50_000;

/** Writers and a reader, ready for runs in fresh folders under `work`. */
export class World {
  private runs = 0;
  /** What the reader's last load read, when it changed nothing; null when the next step must be followed by a load. */
  private readerSaw: Footprint | null = null;
  /** The instant every writer's clock starts at, in every run (see actor.ts virtualClock): now, so file times agree with it. */
  readonly clockMs = Math.floor(Date.now() / 1000) * 1000;

  constructor(
    private readonly writers: Actor[],
    private readonly reader: Actor,
    private readonly work: string,
    private readonly limits: Limits,
    /** The check's seed: each call's random numbers come from it, the run and the call (see random-streams.ts). */
    private readonly seed: number,
    /** The user the writers and the reader run as: each run's folder is given to it, and what a run leaves running ends. */
    private readonly lease?: UserLease,
  ) {}

  /** How many calls the current run has made (each is a process of its own, with random numbers of its own). */
  private callsInRun = 0;
  /** A digest of the current run's setup. */
  private setupKey = "";

  /**
   * The seed of the next call's `Math.random` in this run: from the check's seed, the setup, the
   * writers let through so far and the call's place in the run, never from how many runs came
   * before. So a run replayed alone (a printed replay) draws the numbers it drew in the grade, and
   * runs that share a prefix of choices draw the same numbers along it, as the exploration assumes.
   */
  private nextRandomSeed(exec: Execution): number {
    return seedOf([this.seed, this.setupKey, exec.steps.map((s) => s.writer).join(""), this.callsInRun++]);
  }

  /** The process ids of the writers, then the reader's. */
  get pids(): number[] {
    return [...this.writers.map((w) => w.pid), this.reader.pid];
  }

  /** Runs every writer's atomicCheckpoint once, in the order `choose` makes, and judges what the reader saw. */
  async run(setup: Setup, choose: Chooser): Promise<Execution> {
    const root = path.join(this.work, `run-${++this.runs}`);
    this.callsInRun = 0;
    this.setupKey = createHash("sha256").update(JSON.stringify(setup)).digest("hex");
    for (const sub of ["work", "cwd", "tmp"]) fs.mkdirSync(path.join(root, sub), { recursive: true });
    this.lease?.handOver(root);
    const exec: Execution = { steps: [], choices: [], problem: null, loads: 0 };
    // The old checkpoint is saved by the target's own atomicCheckpoint (its format is its own).
    if (setup.old) {
      const saved = await this.reader.call({ name: "atomicCheckpoint", args: [CHECKPOINT, setup.old.state], root, gated: false, livePids: [], limitMs: this.limits.callMs, randomSeed: this.nextRandomSeed(exec) });
      const ended = endedBadly(saved);
      if (ended) return { ...exec, problem: { kind: "run", afterStep: 0, went: { kind: "old-save-failed", ended } } };
    }
    const n = setup.states.length;
    const pids = this.writers.slice(0, n).map((w) => w.pid);
    const call = (i: number) => ({
      name: "atomicCheckpoint", args: [CHECKPOINT, setup.states[i]], root, gated: true,
      // Most of a writer's call is spent waiting for its turn: each of its own steps is held to
      // callMs by the actor's watchdog, so the call as a whole only gets the check's bound.
      livePids: [...pids.filter((_, j) => j !== i), this.reader.pid], limitMs: this.limits.checkMs, clockMs: this.clockMs, randomSeed: this.nextRandomSeed(exec),
    });
    const events: ActorEvent[] = [];
    for (let i = 0; i < n; i++) events.push(await this.writers[i]!.call(call(i)));
    const during = loadAllowed(setup);
    try {
      // With no old checkpoint, the first load is one where nothing was written: what it gives is
      // "no checkpoint" for the loads after it (phase1.absent charges it when that is not null).
      exec.problem = this.ended(events, 0) ?? (await this.load(root, during, exec, 0, { absent: !setup.old }));
      while (!exec.problem) {
        const running = events.flatMap((e, i) => ("op" in e ? [i] : []));
        if (running.length === 0) break;
        // A writer about to retry a call that failed (waiting for a lock another holds) is left
        // waiting until another writer changes what it touched since: the retry would fail the
        // same way, and letting it spin only lengthens the run.
        const ready = running.filter((i) => !retrying(exec.steps, i, (events[i] as { op: { what: string } }).op.what));
        const waiting = ready.length ? ready : running;
        if (exec.steps.length >= MAX_STEPS) {
          exec.problem = { kind: "run", afterStep: exec.steps.length, went: { kind: "endless", calls: MAX_STEPS } };
          break;
        }
        exec.choices.push({ pending: new Map(waiting.map((i) => [i, (events[i] as { op: { footprint: Footprint } }).op.footprint])) });
        const w = choose(exec.steps.length, waiting, exec.steps);
        const { op } = events[w] as { op: PendingOp };
        exec.steps.push({ writer: w, what: op.what, did: op.did, footprint: op.footprint, failed: false });
        events[w] = await this.writers[w]!.grant();
        const after = events[w]!;
        const step = exec.steps.at(-1)!;
        // The operation as it ran: its file may have been renamed by another writer while it waited.
        const granted = "op" in after ? after.granted : "done" in after ? after.done.granted : undefined;
        if (granted) Object.assign(step, { what: granted.what, did: granted.did, footprint: granted.footprint });
        // A call that failed changed nothing: from here on it counts as a read of the names it named.
        if (("op" in after && after.lastFailed) || ("done" in after && after.done.lastFailed)) {
          step.failed = true;
          step.footprint = { reads: [...step.footprint.reads, ...step.footprint.writes], writes: [] };
        }
        exec.problem = this.ended(events, exec.steps.length);
        // A step that changed nothing the reader's last load read (an fsync, a write to a temp file
        // the load never looks at) leaves it what it saw: the load is not made again.
        if (!exec.problem && (!this.readerSaw || conflict(step.footprint, this.readerSaw))) exec.problem = await this.load(root, during, exec, exec.steps.length);
      }
      if (!exec.problem) exec.problem = await this.load(root, written(setup), exec, exec.steps.length, { final: true });
    } finally {
      await this.drain(events);
      // A program a writer or the reader ran may have left a process behind: it must not write into the next run.
      const actors = [...this.writers, this.reader];
      if (actors.map((a) => a.takeRanProgram()).includes(true)) this.lease?.sweep(actors.flatMap((a) => a.pids));
      fs.rmSync(root, { recursive: true, force: true });
    }
    return exec;
  }

  /** A writer that threw or died; null while every writer is waiting or returned. */
  private ended(events: ActorEvent[], afterStep: number): RunWrong | null {
    for (const [i, e] of events.entries()) {
      const ended = endedBadly(e);
      if (ended) return { kind: "run", afterStep, went: { kind: "writer-failed", writer: i, ended } };
    }
    return null;
  }

  /** Has the reader load the checkpoint (`final`: once every writer has returned); what went wrong when it returns anything but one of `allowed`. */
  private async load(root: string, allowed: Expected[], exec: Execution, afterStep: number, { final = false, absent = false }: { final?: boolean; absent?: boolean } = {}): Promise<RunWrong | null> {
    const pids = this.writers.map((w) => w.pid);
    const event = await this.reader.call({ name: "loadCheckpoint", args: [CHECKPOINT], root, gated: false, livePids: pids, limitMs: this.limits.callMs, randomSeed: this.nextRandomSeed(exec) });
    exec.loads++;
    this.readerSaw = null;
    const seen: LoadSeen = { afterStep, final, allowed };
    (exec.loadsSeen ??= []).push(seen);
    const problem = (went: RunWent): RunWrong => ({ kind: "run", afterStep, went });
    if ("gone" in event) return problem({ kind: "reader-gone", final, said: event.gone });
    if (!("done" in event)) return problem({ kind: "reader-unfinished", final });
    seen.result = event.done.result;
    // A load that changed nothing is a function of what it read: known until a step changes that.
    if (event.done.touched.writes.length === 0) this.readerSaw = event.done.touched;
    else {
      // Names are "@/work/x" for the scenario folder's work/x: gone now means the load removed it.
      const names = [...event.done.touched.writes].map((name) => ({ name, removed: !fs.existsSync(path.join(root, name.replace(/^@\//, ""))) }));
      (exec.readerChanged ??= []).push({ afterStep, names });
      seen.changed = names;
    }
    if (absent) allowed[0] = noCheckpoint(event.done.result);
    const wrong = loadWrong(event.done.result, allowed);
    return wrong === null ? null : problem({ kind: "reader-saw", final, held: onDisk(root), wrong });
  }

  /** Lets every writer finish, in turns (one may wait for another's lock), so each actor is ready for the next run. */
  private async drain(events: ActorEvent[]): Promise<void> {
    for (let n = 0; n < MAX_STEPS; n++) {
      const waiting = events.flatMap((e, i) => ("op" in e ? [i] : []));
      if (waiting.length === 0) return;
      for (const i of waiting) events[i] = await this.writers[i]!.grant();
    }
  }
}

/**
 * True when writer `w` is waiting in a loop: its next call repeats one of its own that failed, or
 * one it already made twice, and no other writer has since changed anything `w` touched (looking
 * back at most RETRY_WINDOW steps). Repeating it now would see the same as before.
 */
function retrying(steps: Step[], w: number, what: string): boolean {
  let same = 0;
  const mine: Footprint[] = [];
  for (let i = steps.length - 1; i >= 0 && i >= steps.length - RETRY_WINDOW; i--) {
    const step = steps[i]!;
    if (step.writer !== w) {
      if (mine.some((m) => conflict(step.footprint, m))) return false;
      continue;
    }
    mine.push(step.footprint);
    if (step.what === what && (step.failed || ++same >= 2)) return true;
  }
  return false;
}

/** How far back `retrying` looks: a loop waiting for a lock repeats within a few calls. */
const RETRY_WINDOW = 64;

/** The states a load may return while the writers run: the old state (or no checkpoint), or any writer's. */
export function loadAllowed(setup: Setup): Expected[] {
  return [setup.old ? { label: "the old state", state: setup.old.state, whose: "old" } : noCheckpoint(), ...written(setup)];
}

/** The states the writers save, as loads may return them. */
function written(setup: Setup): Expected[] {
  return setup.states.map((state, i) => ({ label: `writer ${writerName(i)}'s`, state, whose: i }));
}


/** What the checkpoint file holds: its size and its first 60 characters, as a story shows them; null for no file. */
function onDisk(root: string): { bytes: number; start: string } | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(root, "work", CHECKPOINT_NAME));
  } catch {
    return null;
  }
  return { bytes: bytes.length, start: clip(bytes.toString("utf8"), 60) };
}

/** How a save ended, when not by returning normally: the call threw (or worse), or its process ended; null while it waits or once it returned. */
function endedBadly(e: ActorEvent): SaveEnded | null {
  if ("gone" in e) return { kind: "gone", said: e.gone };
  return "done" in e && e.done.result.status !== "returned" ? { kind: "call", result: e.done.result } : null;
}
