// The engine's side of the benchmark: a sandbox over the reference solution, and the crash
// states it checks per second for one checkpoint write, for runs of many steps, for big states.
import fs from "node:fs";
import path from "node:path";
import { crashCuts, findMark } from "../../crash/cuts.js";
import { SOLUTION_DIR } from "../../paths.js";
import { buildHost } from "../../sandbox/supervisor/build-host.js";
import { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { DEFAULT_LIMITS } from "../../sandbox/messages/limits.js";
import type { ScenarioStep } from "../../sandbox/messages/scenario.js";
import { bundleTarget } from "../../target/bundle.js";

const CHECKPOINT = { $path: "work/checkpoint.json" };

// A run of `steps` steps over a small state, through the reference runner: the cost of a long
// run without the lab task's growing notes (its state reaches 3 MiB at 1,000 steps).
const STEPS_TARGET = `
import { runTask } from "./runner";
export function run(checkpointPath: string, steps: number) {
  const task = {
    id: "bench", steps,
    initialState: () => ({ total: 0, last: "" }),
    runStep: (step: number, s: { total: number; last: string }) => ({ total: s.total + step, last: (s.last + step).slice(-32) }),
  };
  return runTask({ task, checkpointPath });
}
`;

/** A sandbox with the reference checkpoint.ts and a long-run target, in `work`; with `shareRecoveries` false, each crash state is recovered on its own. */
export async function openEngine(work: string, { shareRecoveries = true }: { shareRecoveries?: boolean } = {}): Promise<Sandbox> {
  const hostFile = await buildHost(work);
  const targetDir = path.join(work, "target");
  fs.mkdirSync(targetDir, { recursive: true });
  fs.writeFileSync(path.join(targetDir, "steps.ts"), STEPS_TARGET);
  // The reference's runner beside it, as a target's own file (a target may not import the grader's files by a path).
  for (const file of ["runner.ts", "checkpoint.ts"]) fs.copyFileSync(path.join(SOLUTION_DIR, file), path.join(targetDir, file));
  const modules: Record<string, string> = {};
  for (const [name, dir, file] of [["checkpoint", SOLUTION_DIR, "checkpoint.ts"], ["steps", targetDir, "steps.ts"]] as const) {
    const bundle = await bundleTarget({ targetDir: dir, file, outFile: path.join(work, `${name}.cjs`) });
    if (!bundle.ok) throw new Error(bundle.problem);
    modules[name] = bundle.file;
  }
  return new Sandbox({ hostFile, config: { modules, targetDir: SOLUTION_DIR, work: path.join(work, shareRecoveries ? "host" : "host-alone"), callMs: 60_000, seed: 1, shareRecoveries }, limits: { ...DEFAULT_LIMITS, callMs: 60_000 } });
}

/** Crash states checked per second over every crash point of atomicCheckpoint(old → next), repeated to about `total` states; `shared`: how many of a write's crash states took the run of an earlier one (see runtime/shared-runs.ts). */
export async function statesPerSecond(box: Sandbox, old: unknown, next: unknown, total: number): Promise<{ perSecond: number; window: number; shared: number }> {
  const steps: ScenarioStep[] = [{ call: "atomicCheckpoint", args: [CHECKPOINT, old] }, { call: "atomicCheckpoint", args: [CHECKPOINT, next] }];
  const run = await box.run("checkpoint", { steps }, { record: true });
  const trace = run.trace!;
  const start = findMark(trace, "call:atomicCheckpoint", findMark(trace, "call:atomicCheckpoint"));
  const cuts = crashCuts(trace, start, trace.entries.length);
  // One batch per repetition: within a batch the host recovers once per disk (cuts that leave the
  // same disk share a run), so a batch that repeated the cuts would count runs it never made.
  const repeats = Math.max(1, Math.round(total / cuts.length));
  const started = process.hrtime.bigint();
  let shared = 0;
  for (let i = 0; i < repeats; i++) shared = (await box.runMany("checkpoint", run.traceId!, cuts, [{ call: "loadCheckpoint", args: [CHECKPOINT] }])).filter((r) => r.shared).length;
  return { perSecond: (repeats * cuts.length) / (Number(process.hrtime.bigint() - started) / 1e9), window: cuts.length, shared };
}

/**
 * For a run of `steps` steps: its crash points, the milliseconds to record it and to recover from
 * one crash point to the end, and how many steps a recovery had left to run on average (the
 * reference runner renames one checkpoint into place per step: the renames after the cut).
 */
export async function stepsCost(box: Sandbox, steps: number, sample = 60): Promise<{ states: number; recordMs: number; msPerState: number; remainingSteps: number }> {
  const call: ScenarioStep = { call: "run", args: [{ $path: "work/task-checkpoint.json" }, steps] };
  let started = process.hrtime.bigint();
  const run = await box.run("steps", { steps: [call] }, { record: true });
  const recordMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.results[0]!.status !== "returned" || run.trace!.truncated) throw new Error(`bench: the ${steps}-step run failed: ${JSON.stringify(run.results[0])}`);
  const cuts = crashCuts(run.trace!, 0, run.trace!.entries.length, [], Number.MAX_SAFE_INTEGER);
  const picked = Array.from({ length: Math.min(sample, cuts.length) }, (_, k) => cuts[Math.floor((k * cuts.length) / Math.min(sample, cuts.length))]!);
  const renames = run.trace!.entries.flatMap((e, i) => (e.kind === "rename" ? [i] : []));
  const remainingSteps = picked.reduce((sum, cut) => sum + renames.filter((i) => i >= cut.at).length, 0) / picked.length;
  started = process.hrtime.bigint();
  await box.runMany("steps", run.traceId!, picked, [call]);
  return { states: cuts.length, recordMs, msPerState: Number(process.hrtime.bigint() - started) / 1e6 / picked.length, remainingSteps };
}
