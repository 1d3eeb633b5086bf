// What both power-loss checks share: the power cuts of a recorded atomicCheckpoint, and one power
// cut as a finding's setting (the step the write is missing is the crash engine's: crash/power-loss.ts).
import { wholeCallsAllow, wholeCallStops } from "../../crash/commands.js";
import { MAX_CUTS, sampleEvenly } from "../../crash/cuts.js";
import type { Cut, Trace } from "../../crash/model.js";
import { POWER_POLICIES, missingStep } from "../../crash/power-loss.js";
import { changesDisk } from "../../crash/trace.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { windowPicture, type CrashWindow } from "../phase1/crash-window.js";
import type { MissingStep, Picture } from "../../contract/picture.js";
import type { PowerCutInCall } from "../../contract/finding.js";

/** At most this many points cut per window, each under every policy: as many power cuts as crash/cuts.ts's MAX_CUTS crash states. */
export const MAX_POWER_POINTS = Math.floor(MAX_CUTS / POWER_POLICIES.length);

/**
 * Every policy at each point between `from` and `to` where durability may change (a change to the
 * disk, an fsync). Past `maxPoints`, the points after writes are sampled evenly (the first and the
 * last kept), as crash states inside writes are (crash/cuts.ts): a state written in small pieces
 * has thousands, each only holding more of the same unsynced data. Every other point stays.
 */
export function powerCuts(trace: Trace, from: number, to: number, { maxPoints = MAX_POWER_POINTS }: { maxPoints?: number } = {}): Cut[] {
  const structural = [from];
  const afterWrites: number[] = [];
  // Inside a git command, only where a killed git leaves its mark (see crash/commands.ts).
  const allows = wholeCallsAllow(trace, from);
  for (let i = from; i < to; i++) {
    const e = trace.entries[i]!;
    if ((changesDisk(e) || e.kind === "fsync") && allows(i + 1)) (e.kind === "write" ? afterWrites : structural).push(i + 1);
  }
  structural.push(...wholeCallStops(trace, from, to));
  const room = Math.max(0, maxPoints - structural.length);
  const points = [...new Set([...structural, ...(afterWrites.length <= room ? afterWrites : sampleEvenly(afterWrites, room))])].sort((a, b) => a - b);
  // What was written before the window (the old checkpoint) counts as durable: it was on disk.
  return points.flatMap((at) => POWER_POLICIES.map((policy) => ({ at, power: { ...policy, settled: from } })));
}

/**
 * A power cut at `cut` in the window `w` (the call's own calls end at `end`), as a finding's
 * setting: the disk it left is listed; with `draw`, its picture is drawn too.
 */
export async function powerSetting(box: Sandbox, w: CrashWindow, cut: Cut, end: number, opts: { draw?: (picture: () => Picture | null) => void } = {}): Promise<PowerCutInCall> {
  const state = await box.run("checkpoint", { from: [{ traceId: w.traceId, cut }], steps: [] }, { listDisk: true });
  opts.draw?.(() => withMissing(windowPicture(w, cut, state.disk!), missingStep(w.trace, w.start, end)?.step));
  return { kind: "power-cut-in-call", old: w.old, call: w.call, trace: w.trace, cut, start: w.start, end, disk: state.disk! };
}

/** The picture of a power cut with the step the write is missing, as its story tells it first. */
function withMissing(picture: Picture | null, missing: MissingStep | undefined): Picture | null {
  return picture?.kind === "calls" && missing ? { ...picture, cut: { ...picture.cut, missing } } : picture;
}
