// phase1.crash-schedules: crashes in a row. A process's atomicCheckpoint is killed; the next
// process (which may load first, and may clean up what the crash left) is killed too, in its load
// or in its own atomicCheckpoint; up to three crashes. The process after the last crash must load
// a state that could be there, then write and load a new one. With two crashes, every pair of crash
// points is tried (the points inside writes thinned out); with three, fast-check picks them.
//
// What could be there: a killed write may or may not have taken effect, and a load that returned
// fixes the state until the next write. So the states allowed are the last one a load returned
// or a write completed, and every state of a write killed since.
import fc from "fast-check";
import { chainedTrace, type Crashed } from "../../crash/chain.js";
import { crashCuts, findMark } from "../../crash/cuts.js";
import { describeCut, describeDisk } from "../../crash/describe.js";
import type { Cut, Trace } from "../../crash/model.js";
import { checkLoad, checkWrite, describeResult, load, write, type Expected } from "../../grading/calls.js";
import type { CheckContext } from "../../grading/context.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { fraction, showState, smallJsonState, type JsonState } from "../../grading/states.js";
import { crashPicture } from "../../grading/crash-picture.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import type { CrashPoint } from "../../sandbox/messages/host.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { RECORD_LIMITS_TEXT } from "../../sandbox/interposition/recorder.js";
import { NONE, crashedPid, recordWindow, type OldState } from "./crash-window.js";

/** Crash points kept per call when every pair is tried: every change to the disk, and a few points inside its writes. */
const PAIR_CUTS = 12;

/** A process after the first crash: whether it loads before it writes, the state it writes, and (with three crashes) where it is killed. */
interface Restart {
  loadsFirst: boolean;
  state: JsonState;
  at: number;
}

interface Schedule {
  old: OldState;
  /** The state the first process was writing when it was killed, and where it was killed (with three crashes). */
  first: { state: JsonState; at: number };
  /** One restart with two crashes (every pair of crash points tried), two with three (the points fast-check's). */
  restarts: Restart[];
  /** The state the last process writes. */
  last: JsonState;
}

const schedule: fc.Arbitrary<Schedule> = fc.record({
  old: fc.oneof(fc.constant<OldState>(NONE), smallJsonState()),
  first: fc.record({ state: smallJsonState(), at: fraction() }),
  restarts: fc.array(fc.record({ loadsFirst: fc.boolean(), state: smallJsonState(), at: fraction() }), { minLength: 1, maxLength: 2 }),
  last: smallJsonState(),
});

export const crashSchedules: CheckDefinition = {
  id: "phase1.crash-schedules",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(ctx, schedule, (s) => tryChain(ctx, box, s), {
      numRuns: 12,
      examples: [
        { old: { step: 1 }, first: { state: { step: 2 }, at: 0 }, restarts: [{ loadsFirst: true, state: { step: 3 }, at: 0 }], last: { step: 4 } },
        { old: { step: 1 }, first: { state: { step: 2 }, at: 0 }, restarts: [{ loadsFirst: false, state: { step: 3 }, at: 0 }], last: { step: 4 } },
        { old: NONE, first: { state: "a", at: 0.5 }, restarts: [{ loadsFirst: true, state: "b", at: 0.5 }, { loadsFirst: true, state: "c", at: 0.5 }], last: "d" },
      ],
    });
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};

/** One process of a chain, recorded on what the crashes before it left. */
interface Recorded {
  traceId: string;
  trace: Trace;
  /** Where its first call starts, and where its atomicCheckpoint starts. */
  start: number;
  writeStart: number;
  /** What its load returned in the recording (a crash after the load keeps it), when it loads first. */
  loaded?: CallResult;
  state: JsonState;
  number: number;
}

/** A crash in a chain: the process, where it was killed, and the states a load may return after it. */
interface Link {
  process: Recorded;
  cut: Cut;
  allowed: Expected[];
}

/** The story of the first schedule of `s` that fails, or null. */
async function tryChain(ctx: CheckContext, box: Sandbox, s: Schedule): Promise<string | null> {
  const w = await recordWindow(box, s.old, s.first.state, [], { maxCuts: PAIR_CUTS });
  if (typeof w === "string") return `Could not record a write to crash: ${w}`;
  const pid = crashedPid(w.trace);
  const first: Recorded = { traceId: w.traceId, trace: w.trace, start: w.start, writeStart: w.start, state: s.first.state, number: 2 };
  const setting = s.old === NONE ? "There was no checkpoint yet." : `Process 1 wrote the old checkpoint ${showState(s.old, 60)}.`;
  const allowedAfter = allowedStates;
  // The old state, or what this code's load gives where nothing was written.
  const start: Expected[] = w.allowed.slice(0, 1);
  const chainOf = (links: Link[]): CrashPoint[] => links.map((l) => ({ traceId: l.process.traceId, cut: l.cut }));

  // Two crashes: every crash point of the first write, and for each every crash point of the next process.
  if (s.restarts.length === 1) {
    const restart = s.restarts[0]!;
    for (const cut1 of w.cuts) {
      const allowed1 = allowedAfter(first, cut1, start);
      if (typeof allowed1 === "string") return allowed1;
      const link1: Link = { process: first, cut: cut1, allowed: allowed1 };
      const next = await recordRestart(box, [link1], restart, 3, pid);
      if (typeof next === "string") return tell(setting, [link1], next);
      const cuts2 = processCuts(next, PAIR_CUTS);
      const outcomes = await box.runMany("checkpoint", next.traceId, cuts2, finalSteps(s.last), { base: chainOf([link1]), pid });
      for (const [i, o] of outcomes.entries()) {
        const allowed2 = allowedAfter(next, cuts2[i]!, allowed1);
        if (typeof allowed2 === "string") return tell(setting, [link1], allowed2);
        const problem = judgeLast(o.results, allowed2, s.last, 4);
        if (problem) return await failure(ctx, box, setting, [link1, { process: next, cut: cuts2[i]!, allowed: allowed2 }], problem);
      }
    }
    return null;
  }

  // Three crashes: each where fast-check puts it.
  const links: Link[] = [];
  const firstCut = w.cuts[Math.floor(s.first.at * w.cuts.length)]!;
  const allowed1 = allowedAfter(first, firstCut, start);
  if (typeof allowed1 === "string") return allowed1;
  links.push({ process: first, cut: firstCut, allowed: allowed1 });
  for (const [i, restart] of s.restarts.entries()) {
    const next = await recordRestart(box, links, restart, i + 3, pid);
    if (typeof next === "string") return tell(setting, links, next);
    const cuts = processCuts(next);
    const cut = cuts[Math.floor(restart.at * cuts.length)]!;
    const allowed = allowedAfter(next, cut, links.at(-1)!.allowed);
    if (typeof allowed === "string") return tell(setting, links, allowed);
    links.push({ process: next, cut, allowed });
  }
  const last = await box.run("checkpoint", { from: chainOf(links), steps: finalSteps(s.last), pid });
  const problem = judgeLast(last.results, links.at(-1)!.allowed, s.last, links.length + 2);
  return problem && (await failure(ctx, box, setting, links, problem));
}

/** Records process `number` on what `links` left: it loads (when it loads first), then writes its state. */
async function recordRestart(box: Sandbox, links: Link[], restart: Restart, number: number, pid: number | undefined): Promise<Recorded | string> {
  const steps = restart.loadsFirst ? [load(), write(restart.state)] : [write(restart.state)];
  const from = links.map((l) => ({ traceId: l.process.traceId, cut: l.cut }));
  const run = await box.run("checkpoint", { from, steps, pid }, { record: true });
  const wrote = run.results.at(-1)!;
  // What the load gave is judged with the crash that follows it (see allowedStates).
  const loaded = restart.loadsFirst ? run.results[0]! : undefined;
  const problem = checkWrite(wrote, restart.state);
  if (problem) return `Process ${number} ${loaded ? `loaded, then` : "then"}: ${problem}.`;
  if (run.trace!.truncated) return `Process ${number} made more file-system calls than the grader records (${RECORD_LIMITS_TEXT}).`;
  const start = findMark(run.trace!, `call:${restart.loadsFirst ? "loadCheckpoint" : "atomicCheckpoint"}`);
  const writeStart = findMark(run.trace!, "call:atomicCheckpoint");
  return { traceId: run.traceId!, trace: run.trace!, start, writeStart, loaded, state: restart.state, number };
}

/** The crash points of a process's calls, at most `max` when given (every change to the disk is kept). */
function processCuts(r: Recorded, max?: number): Cut[] {
  return crashCuts(r.trace, r.start, r.trace.entries.length, [], max);
}

/**
 * The states a load may return after `r` was killed at `cut`, given those allowed before it: its
 * load, once it returned, fixes one of them; its write, once begun, may have taken effect.
 * A string when its load returned a state that could not be there (told as the process's own failure).
 */
function allowedStates(r: Recorded, cut: Cut, before: Expected[]): Expected[] | string {
  const writing = cut.at >= r.writeStart;
  let now = before;
  if (writing && r.loaded) {
    const problem = checkLoad(r.loaded, before);
    if (problem) return `Process ${r.number} then: ${problem}.`;
    const same = before.filter((e) => checkLoad(r.loaded!, [e]) === null);
    now = same.map((e) => ({ ...e, label: `the state process ${r.number} loaded` }));
  }
  return writing ? [...now, { label: `the state process ${r.number} was writing`, state: r.state }] : now;
}

/** The last process: it loads, writes a state of its own, and loads that. */
function finalSteps(last: JsonState) {
  return [load(), write(last), load()];
}

/** Null when the last process loaded an allowed state and wrote and loaded its own; otherwise what went wrong. */
function judgeLast(results: CallResult[], allowed: Expected[], last: JsonState, number: number): string | null {
  const loaded = checkLoad(results[0]!, allowed);
  if (loaded) return `Process ${number} then: ${loaded}.`;
  const wrote = checkWrite(results[1]!, last);
  if (wrote) return `Process ${number} loaded, then: ${wrote}.`;
  const again = checkLoad(results[2]!, [{ label: "the state it had just written", state: last }]);
  return again && `Process ${number} loaded, wrote ${showState(last, 60)}, then: ${again}.`;
}

/** The story of a schedule that failed at the last process, with the picture of the last crash. */
async function failure(ctx: CheckContext, box: Sandbox, setting: string, links: Link[], problem: string): Promise<string> {
  const from = links.map((l) => ({ traceId: l.process.traceId, cut: l.cut }));
  const state = await box.run("checkpoint", { from, steps: [] }, { listDisk: true });
  ctx.draw(() => chainPicture(links, state.disk!));
  return [setting, ...links.map(crashLine), `On disk after the last crash: ${describeDisk(state.disk!)}.`, problem].join("\n");
}

/** A story that ends before the last process ran: the crashes so far, then what went wrong. */
function tell(setting: string, links: Link[], problem: string): string {
  return [setting, ...links.map(crashLine), problem].join("\n");
}

/** "Process 3 called loadCheckpoint, which returned X, then atomicCheckpoint(path, Y), and was killed right after ...". */
function crashLine(link: Link): string {
  const { process: r, cut } = link;
  const inLoad = cut.at < r.writeStart;
  const call = inLoad ? "loadCheckpoint" : "atomicCheckpoint";
  const where = describeCut(r.trace, cut, inLoad ? r.start : r.writeStart, call).replace(`as ${call} started`, "as it started");
  if (inLoad) return `Process ${r.number} called loadCheckpoint and was ${where}.`;
  const writing = `atomicCheckpoint(path, ${showState(r.state, 60)})`;
  if (!r.loaded) return `Process ${r.number} called ${writing} and was ${where}.`;
  const loaded = r.loaded.status === "returned" ? `loadCheckpoint, which returned ${r.loaded.value.preview},` : `loadCheckpoint (${describeResult("it", r.loaded)}),`;
  return `Process ${r.number} called ${loaded} then ${writing}, and was ${where}.`;
}

/** The last crash drawn as Phase 1 draws one: the calls of the call it fell in, and the folder before and after. */
function chainPicture(links: Link[], disk: Parameters<typeof crashPicture>[0]["disk"]) {
  const last = links.at(-1)!;
  const before: Crashed[] = links.slice(0, -1).map((l) => ({ trace: l.process.trace, cut: l.cut }));
  const { trace, offset } = chainedTrace(before, last.process.trace);
  const inLoad = last.cut.at < last.process.writeStart;
  const windowStart = offset + (inLoad ? last.process.start : last.process.writeStart);
  const call = inLoad ? "loadCheckpoint(path)" : `atomicCheckpoint(path, ${showState(last.process.state, 80)})`;
  try {
    return crashPicture({ trace, cut: { ...last.cut, at: last.cut.at + offset }, windowStart, call, checkpoint: "@/work/checkpoint.json", disk });
  } catch {
    return null;
  }
}
