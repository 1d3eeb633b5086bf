// What the checks of crashes in a row share (phase1.crash-schedules, and the power cuts of
// power-loss.cut-while-recovering): the processes of a chain, each recorded on what the crashes
// before it left; the states a load may return after each crash; the last process's calls and
// their judgement; and the finding, the chain's links as data.
//
// What could be there: a killed write may or may not have taken effect, and a load that returned
// fixes the state until the next write; a write that returned fixes its own. So the states allowed
// are the last one a load returned or a write completed, and every state of a write killed since.
import { chainedTrace, type Crashed } from "../../crash/chain.js";
import { findMark } from "../../crash/cuts.js";
import type { Cut, DiskEntry, Trace } from "../../crash/model.js";
import { load, loadWrong, write, writeWrong, type Expected } from "../../grading/calls.js";
import type { ChainLink, Finding } from "../../contract/finding.js";
import type { CheckContext } from "../../grading/context.js";
import { crashPicture } from "../../grading/crash-picture.js";
import { showState, type JsonState } from "../../grading/states.js";
import type { CrashPoint } from "../../sandbox/messages/host.js";
import type { CallResult, ScenarioStep } from "../../sandbox/messages/scenario.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { recordLimitsText } from "../../sandbox/interposition/recorder.js";
import type { CrashWindow } from "./crash-window.js";

/** One process of a chain, recorded on what the crashes before it left. */
export interface Recorded {
  traceId: string;
  trace: Trace;
  /** Where its first call starts, where its atomicCheckpoint starts, and where that returned (its return mark). */
  start: number;
  writeStart: number;
  writeEnd: number;
  /** What its load returned in the recording (a crash after the load keeps it), when it loads first. */
  loaded?: CallResult;
  state: JsonState;
  /** Its place in the story: process 2 is the first one killed (process 1 wrote the old checkpoint). */
  number: number;
}

/** A crash in a chain: the process, where it was killed (or the power cut), and the states a load may return after it. */
export interface Link {
  process: Recorded;
  cut: Cut;
  allowed: Expected[];
}

/** A process after the first crash: whether it loads before it writes, and the state it writes. */
export interface Restart {
  loadsFirst: boolean;
  state: JsonState;
}

/** Process 2: the write of a crash window, the first one killed. */
export function firstProcess(w: CrashWindow, state: JsonState): Recorded {
  return { traceId: w.traceId, trace: w.trace, start: w.start, writeStart: w.start, writeEnd: findMark(w.trace, "return:atomicCheckpoint", w.start) - 1, state, number: 2 };
}

/** The crash points of a chain so far, as the sandbox rebuilds them. */
export function chainOf(links: readonly Link[]): CrashPoint[] {
  return links.map((l) => ({ traceId: l.process.traceId, cut: l.cut }));
}

/** Records process `number` on what `links` left: it loads (when it loads first), then writes its state. */
export async function recordRestart(box: Sandbox, links: readonly Link[], restart: Restart, number: number, pid: number | undefined): Promise<Recorded | ChainStop> {
  const steps = restart.loadsFirst ? [load(), write(restart.state)] : [write(restart.state)];
  const run = await box.run("checkpoint", { from: chainOf(links), steps, pid }, { record: true });
  // What the load gave is judged with the crash that follows it (see allowedStates).
  const loaded = restart.loadsFirst ? run.results[0]! : undefined;
  const wrong = writeWrong(run.results.at(-1)!, restart.state);
  if (wrong) return { when: { kind: "in-chain", process: number, did: loaded ? "loaded" : "nothing" }, wrong };
  if (run.trace!.truncated) return { when: { kind: "in-chain", process: number, did: "nothing" }, wrong: { kind: "too-many-calls", limits: recordLimitsText() } };
  const trace = run.trace!;
  const start = findMark(trace, `call:${restart.loadsFirst ? "loadCheckpoint" : "atomicCheckpoint"}`);
  const writeStart = findMark(trace, "call:atomicCheckpoint");
  return { traceId: run.traceId!, trace, start, writeStart, writeEnd: findMark(trace, "return:atomicCheckpoint", writeStart) - 1, loaded, state: restart.state, number };
}

/**
 * The states a load may return after `r` was cut at `cut`, given those allowed before it: its
 * load, once it returned, fixes one of them; its write, once begun, may have taken effect, and
 * once returned, has. A string when its load returned a state that could not be there.
 */
export function allowedStates(r: Recorded, cut: Cut, before: Expected[]): Expected[] | ChainStop {
  const writing = cut.at >= r.writeStart;
  if (writing && cut.at > r.writeEnd) return [{ label: `the state process ${r.number} wrote`, state: r.state }];
  let now = before;
  if (writing && r.loaded) {
    const wrong = loadWrong(r.loaded, before);
    if (wrong) return { when: { kind: "in-chain", process: r.number, did: "nothing" }, wrong };
    now = before.filter((e) => loadWrong(r.loaded!, [e]) === null).map((e) => ({ ...e, label: `the state process ${r.number} loaded` }));
  }
  return writing ? [...now, { label: `the state process ${r.number} was writing`, state: r.state }] : now;
}

/** The last process: it loads, writes a state of its own, and loads that. */
export function finalSteps(last: JsonState): ScenarioStep[] {
  return [load(), write(last), load()];
}

/** Null when the last process (`number`) loaded an allowed state and wrote and loaded its own; otherwise what went wrong. */
export function judgeLast(results: CallResult[], allowed: Expected[], last: JsonState, number: number): ChainStop | null {
  const loaded = loadWrong(results[0]!, allowed);
  if (loaded) return { when: { kind: "in-chain", process: number, did: "nothing" }, wrong: loaded };
  const wrote = writeWrong(results[1]!, last);
  if (wrote) return { when: { kind: "in-chain", process: number, did: "loaded" }, wrong: wrote };
  const again = loadWrong(results[2]!, [{ label: "the state it had just written", state: last }]);
  return again && { when: { kind: "in-chain", process: number, did: "loaded-and-wrote", wrote: showState(last, 60) }, wrong: again };
}

/** What went wrong in a process of a chain, with when: the end of the chain's story. */
export type ChainStop = Required<Pick<Finding, "when" | "wrong">>;

/** Whether a recording or a judgement of a chain stopped it: what went wrong there. */
export function stopped<T extends object>(x: T | ChainStop): x is ChainStop {
  return "wrong" in x && "when" in x;
}

/** The old checkpoint process 1 wrote, as a chain's story shows it; null when there was none. */
export function oldShown(old: JsonState | undefined): string | null {
  return old === undefined ? null : showState(old, 60);
}

/** A chain that failed at the last process, with what the last crash left, and the picture of that crash when it can be drawn. */
export async function chainFailure(ctx: CheckContext, box: Sandbox, old: string | null, links: Link[], stop: ChainStop): Promise<Finding> {
  const state = await box.run("checkpoint", { from: chainOf(links), steps: [] }, { listDisk: true });
  ctx.draw(() => chainPicture(links, state.disk!));
  return { setting: { kind: "crash-chain", old, links: links.map(chainLink), disk: state.disk! }, ...stop };
}

/** A chain that stopped before its last process ran: the crashes so far, then what went wrong. */
export function tellChain(old: string | null, links: Link[], stop: ChainStop): Finding {
  return { setting: { kind: "crash-chain", old, links: links.map(chainLink) }, ...stop };
}

/** A link of a chain as a finding holds it. */
function chainLink({ process: r, cut }: Link): ChainLink {
  return { number: r.number, trace: r.trace, cut, start: r.start, writeStart: r.writeStart, writeEnd: r.writeEnd, state: showState(r.state, 60), ...(r.loaded ? { loaded: r.loaded } : {}) };
}

/** The last crash drawn as Phase 1 draws one: the calls of the call it fell in, and the folder before and after (process crashes only). */
function chainPicture(links: Link[], disk: DiskEntry[]) {
  const last = links.at(-1)!;
  // A power cut leaves a disk that no trace's prefix holds: its picture would not match the folder listed.
  if (links.some((l) => l.cut.power)) return null;
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
