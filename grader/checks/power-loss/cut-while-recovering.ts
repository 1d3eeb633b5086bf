// power-loss.cut-while-recovering: a power cut inside atomicCheckpoint, and another in the process
// that runs when the machine is back (in its load, in its own atomicCheckpoint, or after that
// returned). The last process must load a state that could be there (phase1/crash-chain.ts says
// which), then write and load a new one. Every pair of power cuts is tried, under every policy,
// once per disk they leave: two cuts that leave the same disk (and allow the same states) are one.
import { createHash } from "node:crypto";
import fc from "fast-check";
import type { Cut, Trace } from "../../crash/model.js";
import { POWER_POLICIES, modelAt, powerImage } from "../../crash/power-loss.js";
import type { PowerNode } from "../../crash/power-nodes.js";
import type { Expected } from "../../grading/calls.js";
import type { CheckContext } from "../../grading/context.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { smallJsonState, type JsonState } from "../../grading/states.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { allowedStates, chainFailure, chainOf, finalSteps, firstProcess, judgeLast, recordRestart, oldShown, stopped, tellChain, type ChainStop, type Link, type Recorded, type Restart } from "../phase1/crash-chain.js";
import type { Failure } from "../../contract/finding.js";
import { NONE, crashedPid, recordWindow, type OldState } from "../phase1/crash-window.js";
import { powerCuts } from "./power-window.js";

interface Schedule {
  old: OldState;
  first: JsonState;
  restart: Restart;
  last: JsonState;
}

const schedule: fc.Arbitrary<Schedule> = fc.record({
  old: fc.oneof(fc.constant<OldState>(NONE), smallJsonState()),
  first: smallJsonState(),
  restart: fc.record({ loadsFirst: fc.boolean(), state: smallJsonState() }),
  last: smallJsonState(),
});

export const cutWhileRecovering: CheckDefinition = {
  id: "power-loss.cut-while-recovering",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(ctx, schedule, (s) => tryPowerChain(ctx, box, s), {
      numRuns: 6,
      examples: [
        { old: { step: 1 }, first: { step: 2 }, restart: { loadsFirst: true, state: { step: 3 } }, last: { step: 4 } },
        { old: NONE, first: { step: 1 }, restart: { loadsFirst: false, state: { step: 2 } }, last: { step: 3 } },
      ],
    });
    return found ? ctx.failed(found.story, found.path) : ctx.passed();
  },
};

/** The first pair of power cuts of `s` that fails, or null. */
async function tryPowerChain(ctx: CheckContext, box: Sandbox, s: Schedule): Promise<Failure | null> {
  const w = await recordWindow(box, s.old, s.first);
  if (typeof w === "string") return `Could not record a write to cut the power in: ${w}`;
  const pid = crashedPid(w.trace);
  const first = firstProcess(w, s.first);
  const old = oldShown(s.old === NONE ? undefined : s.old);
  const start: Expected[] = w.allowed.slice(0, 1);
  for (const { cut: cut1, image, allowed: allowed1 } of distinct(first, start, new Map())) {
    if (stopped(allowed1)) return tellChain(old, [], allowed1);
    const link1: Link = { process: first, cut: cut1, allowed: allowed1 };
    const next = await recordRestart(box, [link1], s.restart, 3, pid);
    if (stopped(next)) return tellChain(old, [link1], next);
    const cuts2 = distinct(next, link1.allowed, image);
    const outcomes = await box.runMany("checkpoint", next.traceId, cuts2.map((c) => c.cut), finalSteps(s.last), { base: chainOf([link1]), pid });
    for (const [i, o] of outcomes.entries()) {
      const allowed2 = cuts2[i]!.allowed;
      if (stopped(allowed2)) return tellChain(old, [link1], allowed2);
      const problem = judgeLast(o.results, allowed2, s.last, 4);
      if (problem) return await chainFailure(ctx, box, old, [link1, { process: next, cut: cuts2[i]!.cut, allowed: allowed2 }], problem);
    }
  }
  return null;
}

/**
 * The power cuts of process `r` (begun on the disk `base`) under every policy, inside its calls and
 * after its write returned: one per disk they leave and states they allow, the earliest first.
 */
function distinct(r: Recorded, before: Expected[], base: ReadonlyMap<string, PowerNode>): { cut: Cut; image: Map<string, PowerNode>; allowed: Expected[] | ChainStop }[] {
  const after = POWER_POLICIES.map((policy) => ({ at: r.writeEnd + 1, power: { ...policy, settled: r.start } }));
  const seen = new Set<string>();
  const out: { cut: Cut; image: Map<string, PowerNode>; allowed: Expected[] | ChainStop }[] = [];
  for (const cut of [...powerCuts(r.trace, r.start, r.writeEnd), ...after]) {
    const image = imageAt(r.trace, cut, base);
    const allowed = allowedStates(r, cut, before);
    const key = `${imageKey(image)} ${JSON.stringify(stopped(allowed) ? allowed : allowed.map((a) => a.state))}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ cut, image, allowed });
  }
  return out;
}

/** The disk a power cut at `cut` leaves, when the trace began on `base`. */
function imageAt(trace: Trace, cut: Cut, base: ReadonlyMap<string, PowerNode>): Map<string, PowerNode> {
  return powerImage(modelAt(trace, cut, undefined, base.size > 0 ? base : undefined), cut.power!);
}

/** What a disk holds, as one string: two disks with the same key hold the same names, kinds, bytes and links. */
function imageKey(image: Map<string, PowerNode>): string {
  const hash = createHash("sha1");
  for (const [name, node] of [...image].sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`${name}\0${node.kind}\0`);
    if (node.kind === "file") hash.update(node.data);
    else if (node.kind === "symlink") hash.update(node.target);
    hash.update("\0");
  }
  return hash.digest("hex");
}
