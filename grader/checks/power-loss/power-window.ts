// What both power-loss checks share: the power cuts of a recorded atomicCheckpoint, the missing
// step that explains a failure, and the story of one power cut.
import { wholeCallsAllow, wholeCallStops } from "../../crash/commands.js";
import { MAX_CUTS, sampleEvenly } from "../../crash/cuts.js";
import { describeCut, describeDisk, normaliseName } from "../../crash/describe.js";
import type { Cut, Trace } from "../../crash/model.js";
import { POWER_POLICIES, describePolicy, modelAt } from "../../crash/power-loss.js";
import { changesDisk, displayPath } from "../../crash/trace.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { windowPicture, type CrashWindow } from "../phase1/crash-window.js";
import type { MissingStep, Picture } from "../../contract/picture.js";
import { callOver } from "../../report/finding-story.js";

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
 * The step the write is missing, judged from its trace between `from` and `to`: the renamed
 * file's data not fsynced before the rename onto the checkpoint ("data"), or the folder not
 * fsynced after it ("folder"); in words, and as data.
 */
export function missingStep(trace: Trace, from: number, to: number, checkpoint = "@/work/checkpoint.json"): { words: string; step: MissingStep } | null {
  let renameAt = -1;
  for (let i = from; i < to; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "rename" && e.to === checkpoint) renameAt = i;
  }
  if (renameAt === -1) return null;
  const rename = trace.entries[renameAt] as Extract<Trace["entries"][number], { kind: "rename" }>;
  const before = modelAt(trace, { at: renameAt }, from);
  const node = before.nodeAt(rename.from);
  if (node?.kind === "file" && !node.data.equals(node.synced)) {
    const unsynced = `the data of ${JSON.stringify(normaliseName(displayPath(rename.from)))} was never fsynced before the rename`;
    const skippedBy = flushIgnoredOn(trace, from, renameAt, rename.from);
    return { step: skippedBy ? "data-flush-ignored" : "data", words: skippedBy ? `${unsynced}. On Node ${skippedBy}, writeFileSync with a string and an encoding ignores \`flush: true\` (a bug in Node), so nothing fsynced that file` : unsynced };
  }
  const after = modelAt(trace, { at: to }, from);
  if (!after.entryDurable(checkpoint)) {
    return { step: "folder", words: `the folder was not fsynced after the rename onto ${JSON.stringify(displayPath(checkpoint))}, so the rename itself may not survive` };
  }
  return null;
}

/** The Node version whose writeFileSync wrote `file` between `from` and `to`, was asked to flush, and made no fsync; null if none did. */
function flushIgnoredOn(trace: Trace, from: number, to: number, file: string): string | null {
  const opensOfFile = new Set<number>();
  for (let i = from; i < to; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && e.path === file) opensOfFile.add(e.fd);
    if (e.kind === "write" && e.flushIgnored && opensOfFile.has(e.fd)) return e.flushIgnored;
  }
  return null;
}

/** The story of a power cut at `cut` in the window `w`, ending with what the load did (`problem`). */
export async function powerStory(box: Sandbox, w: CrashWindow, cut: Cut, end: number, problem: string, opts: { draw?: (picture: () => Picture | null) => void } = {}): Promise<string> {
  const state = await box.run("checkpoint", { from: [{ traceId: w.traceId, cut }], steps: [] }, { listDisk: true });
  const missing = missingStep(w.trace, w.start, end);
  opts.draw?.(() => withMissing(windowPicture(w, cut, state.disk!), missing?.step));
  const where = cut.at >= end
    ? "called, and the power failed right after it returned"
    : describeCut(w.trace, cut, w.start, { call: "atomicCheckpoint", interruption: "interrupted by a power cut" });
  const volatile = modelAt(w.trace, cut).volatile();
  return [
    missing ? `${capitalize(missing.words)}.` : "",
    `${callOver(w.old, w.call)} ${where}.`,
    volatile.length ? `Not yet durable at that moment: ${volatile.join("; ")}.` : "",
    `The power cut went this way: ${describePolicy(cut.power!)}.`,
    `On disk after the power cut: ${describeDisk(state.disk!)}.`,
    `On restart, ${problem}.`,
  ].filter(Boolean).join("\n");
}

/** The picture of a power cut with the step the write is missing, as its story tells it first. */
function withMissing(picture: Picture | null, missing: MissingStep | undefined): Picture | null {
  return picture?.kind === "calls" && missing ? { ...picture, cut: { ...picture.cut, missing } } : picture;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
