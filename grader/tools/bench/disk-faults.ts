// The disk-fault checks' side of the benchmark: for one atomicCheckpoint of the reference solution,
// every fault the three checks make at its fault points, each run and judged as the checks do.
import { DISK_FULL } from "../../checks/disk-faults/disk-full.js";
import { FAILED_FSYNC } from "../../checks/disk-faults/failed-fsync.js";
import { runFault, type FaultSample } from "../../checks/disk-faults/fault-cases.js";
import { SHORT_WRITES } from "../../checks/disk-faults/short-writes.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { storyOf } from "../../report/finding-story.js";

const CHECKPOINT = { $path: "work/checkpoint.json" };

/** Fault states (one fault, its call, the loads and the next save after it) checked per second for atomicCheckpoint(old → next). */
export async function faultStatesPerSecond(box: Sandbox, old: unknown, next: unknown, rounds: number): Promise<{ perSecond: number; faults: number }> {
  const sample: FaultSample = { old, next, after: { after: true }, fractions: [] };
  const survey = await box.run("checkpoint", {
    steps: [{ call: "atomicCheckpoint", args: [CHECKPOINT, old] }, { faults: {} }, { call: "atomicCheckpoint", args: [CHECKPOINT, next] }, { faults: "off" }],
  });
  const points = survey.faults!.points;
  const cases = [SHORT_WRITES, DISK_FULL, FAILED_FSYNC].flatMap((kind) => kind.faults(points, []).map((fault) => ({ kind, fault })));
  const started = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) {
    for (const { kind, fault } of cases) {
      const finding = await runFault(box, sample, fault, points, kind);
      if (finding) throw new Error(`bench: the reference solution failed a disk fault: ${storyOf(finding)}`);
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { perSecond: (rounds * cases.length) / seconds, faults: cases.length };
}
