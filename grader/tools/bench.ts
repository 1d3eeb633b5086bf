// `npm run bench`: measures, in one run and side by side,
//   (a) the crash states the engine checks per second (rebuild a crash state, recover, judge);
//   (b) the wall time of a full grade of the solution (as root: with the submitted code as users of
//       its own, and as the grader's own user, side by side), its processor time, and each
//       deliverable graded alone (wall and processor time: where a grade's work goes);
//   (c) a naive baseline, the way a TA would write it: per crash point, a fresh `tsx` process
//       killed at that point, and another one to load what it left;
// then how the engine's cost grows with the number of steps and with the size of the state (beside
// the bare work of a crash state of that size: write, read, JSON.parse), what the concurrency
// checks cost (orders of two writers, calls let through per second), what the disk-fault checks
// cost (fault states per second, each a run of its own), what the HTML page each grade writes
// costs beside the grade, and grade-batch's grades per minute at --jobs 1, 2 and 4; last, the
// speed targets (bench/targets.ts), each met or missed.
//   npm run bench -- --json bench.json --runs 3
//   npm run bench -- --skip grade,batch     the engine's parts alone, in minutes (parts: grade, the
//                                           full grades, pages and cache; baseline; concurrency; batch)
//   npm run bench -- --against <commit>     also the cold grades (reference, starter, Phase 1 done) and
//                                           grade-batch, side by side with the grader at <commit>
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { stateOfSize } from "../grading/states.js";
import { REPO_ROOT } from "../paths.js";
import { gradesAsRoot } from "../sandbox/identity/target-user.js";
import type { Report } from "../report/report.js";
import { naiveBaseline } from "./bench/baseline.js";
import { batchThroughput } from "./bench/batch.js";
import { makePhase1Done, sideBySide, sideBySideLines } from "./bench/against.js";
import { cacheCost } from "./bench/cache.js";
import { concurrencyCost } from "./bench/concurrency.js";
import { faultStatesPerSecond } from "./bench/disk-faults.js";
import { DRAWN_FIXTURES, gradeFixture, htmlCost } from "./bench/html.js";
import { openEngine, statesPerSecond, stepsCost } from "./bench/engine.js";
import { physicalLimit } from "./bench/physical-limit.js";
import { deliverablesAlone, timedRun } from "./bench/processor-time.js";
import { causeProfileLines, profiledGrade } from "./bench/cpu-causes.js";
import { TARGETS, targetLines } from "./bench/targets.js";

const KiB = 1024;
const MiB = 1024 * KiB;
/** The parts `--skip` may leave out; the engine's own measures always run. */
const PARTS = ["grade", "baseline", "concurrency", "batch"];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { json: { type: "string" }, runs: { type: "string", default: "3" }, skip: { type: "string", default: "" }, against: { type: "string" } } });
  const runs = Number(values.runs);
  const skip = new Set(values.skip.split(",").filter(Boolean));
  for (const part of skip) if (!PARTS.includes(part)) throw new Error(`--skip expects parts among ${PARTS.join(", ")}, got ${JSON.stringify(part)}`);
  const scratch = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
  const work = fs.mkdtempSync(path.join(scratch, "checkpoint-bench-"));
  const graded = skip.has("grade") ? null : await gradeCosts(work, runs);
  const compared = values.against === undefined ? null : await sideBySide(work, values.against, runs);
  if (compared) for (const l of sideBySideLines(compared, median)) console.log(l);
  const box = await openEngine(work);
  // The same engine with each crash state recovered on its own, measured in turns with the first.
  const alone = await openEngine(work, { shareRecoveries: false });
  try {
    const [old, next] = [stateOfSize(8 * KiB, 1), stateOfSize(24 * KiB, 2)];
    const engine: number[] = [];
    const engineAlone: number[] = [];
    let engineShared = { window: 0, shared: 0 };
    for (let i = 0; i < runs; i++) {
      const measured = await statesPerSecond(box, old, next, 3000);
      engine.push(measured.perSecond);
      engineShared = measured;
      engineAlone.push((await statesPerSecond(alone, old, next, 3000)).perSecond);
    }
    line("(a) engine", `${fmt(median(engine))} crash states/s (${engineShared.shared} of ${engineShared.window} a write share a recovery)`, engine);
    line("    each recovered alone", `${fmt(median(engineAlone))} crash states/s`, engineAlone);
    const faults: number[] = [];
    let faultCases = 0;
    for (let i = 0; i < runs; i++) {
      const measured = await faultStatesPerSecond(box, old, next, 5);
      faults.push(measured.perSecond);
      faultCases = measured.faults;
    }
    line("(d) disk faults", `${fmt(median(faults))} fault states/s (${faultCases} per write)`, faults);

    const baseline = skip.has("baseline") ? [] : await naiveBaseline(work, old, next, [1, 2, 3, 4, 5, 6, 7, 8].slice(0, Math.max(4, runs * 2)));
    const speedup = baseline.length > 0 ? median(baseline) * median(engine) : null;
    if (speedup !== null) {
      line("(c) naive baseline", `${fmt(median(baseline), 2)} s per crash state`, baseline);
      console.log(`\nengine vs naive baseline, per crash state: ${fmt(speedup)}x faster\n`);
    }

    console.log("cost by number of steps (a long run, recovered to the end from sampled crash points):");
    const bySteps = [];
    for (const steps of [10, 100, 1000]) {
      const cost = await stepsCost(box, steps);
      bySteps.push({ steps, ...cost });
      console.log(`  ${String(steps).padStart(5)} steps: ${cost.states} crash states, recorded in ${fmt(cost.recordMs, 1)} ms, ${fmt(cost.msPerState, 2)} ms per crash state, ${fmt(cost.remainingSteps, 1)} steps left to run per recovery`);
    }
    console.log("cost by state size (one atomicCheckpoint, every crash point), beside the bare work of one crash state (write, read, JSON.parse):");
    const bySize = [];
    for (const size of [KiB, 64 * KiB, MiB, 10 * MiB]) {
      const [state, next] = [stateOfSize(size, 3), stateOfSize(size, 4)];
      const total = Math.max(40, Math.round(2000 * (KiB / size) ** 0.5));
      const { perSecond, window, shared } = await statesPerSecond(box, state, next, total);
      const lone = (await statesPerSecond(alone, state, next, total)).perSecond;
      const limit = physicalLimit(next, work);
      bySize.push({ bytes: size, stateBytes: limit.bytes, crashStates: window, sharedStates: shared, perSecond, alonePerSecond: lone, limitPerSecond: limit.perSecond, ofLimit: perSecond / limit.perSecond, aloneOfLimit: lone / limit.perSecond });
      const rate = (n: number) => fmt(n, n < 10 ? 1 : 0);
      console.log(`  ${label(size).padStart(7)} (a ${label(limit.bytes, 1)} state): ${window} crash states per write (${shared} share a recovery), ${rate(perSecond)} crash states/s; the bare work ${rate(limit.perSecond)}/s (${fmt((perSecond / limit.perSecond) * 100)}%); each recovered alone ${rate(lone)}/s (${fmt((lone / limit.perSecond) * 100)}%)`);
    }

    const concurrency = skip.has("concurrency") ? null : await concurrencyCost(work, Math.max(3, runs * 2));
    if (concurrency) {
      console.log("concurrency (two writer processes and a reader over the reference solution, every order that matters):");
      console.log(`  ${fmt(concurrency.ordersPerExploration, 1)} orders per exploration, ${fmt(concurrency.ordersPerSecond)} orders/s, ${fmt(concurrency.callsPerSecond)} file-system calls let through per second`);
    }

    const batch = skip.has("batch") ? [] : await batchThroughput(work, [1, 2, 4], 4);
    if (batch.length > 0) console.log("grade-batch over copies of the solution, by grades at once (--jobs):");
    for (const b of batch) console.log(`  --jobs ${b.jobs}: ${b.submissions} grades in ${fmt(b.seconds, 1)} s, ${fmt(b.gradesPerMinute, 2)} grades/min`);
    if (skip.size > 0) console.log(`(not measured this run: ${[...skip].join(", ")})`);

    const diskFaults = { faultStatesPerSecond: median(faults), faultsPerWrite: faultCases, runs: faults };
    const result = {
      crashStatesPerSecond: median(engine),
      crashStatesPerSecondAlone: median(engineAlone),
      ...(graded ? gradeNumbers(graded) : { gradeSeconds: null, starterGradeSeconds: null, phase1DoneGradeSeconds: null }),
      baselineSecondsPerCrashState: baseline.length > 0 ? median(baseline) : null,
      speedup,
      runs: { engine, engineAlone, grades: graded?.grades ?? [], baseline },
      bySteps,
      bySize,
      concurrency,
      diskFaults,
      batch,
      sideBySide: compared,
    };
    const targets = TARGETS.map((t) => t.judge(result));
    console.log("\ntargets:");
    for (const l of targetLines(targets)) console.log(`  ${l}`);
    if (values.json) fs.writeFileSync(values.json, JSON.stringify({ ...result, targets }, null, 2) + "\n");
  } finally {
    await Promise.all([box.close(), alone.close()]);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The full grades of the solution (first, alone), their pages, each deliverable's time, and the verdict cache's. */
async function gradeCosts(work: string, runs: number) {
  // The full grades run first, alone: nothing else of the bench's is running or holding memory then.
  // As root, each run grades twice, interleaved: the submitted code as users of its own (the
  // default), and as the grader's own user (GRADE_SANDBOX_USER=off), to show what the users cost.
  const modes = gradesAsRoot() ? [{ name: "separate", env: {} }, { name: "shared", env: { GRADE_SANDBOX_USER: "off" } }] : [{ name: "shared", env: {} }];
  const byUser: Record<string, number[]> = Object.fromEntries(modes.map((m) => [m.name, []]));
  let crashStates = 0;
  // Each deliverable's wall time in each full grade of the first mode (they run side by side).
  const byDeliverable: Record<string, number[]> = {};
  // Each deliverable's crash states in a full grade (the same in every grade: it is deterministic).
  const statesOf: Record<string, number> = {};
  // The processor time of each full grade of the first mode, every process of the grade included.
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const mode of modes) {
      const json = path.join(work, "report.json");
      const run = await timedRun(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", "solution", "--json", json, "--no-cache"], { env: mode.env });
      byUser[mode.name]!.push(run.seconds);
      const report = JSON.parse(fs.readFileSync(json, "utf8")) as Report;
      crashStates = report.stats.crashStates;
      if (mode !== modes[0]) continue;
      for (const d of report.deliverables) (byDeliverable[d.id] ??= []).push((d.durationMs ?? 0) / 1000);
      for (const d of report.deliverables) statesOf[d.id] = d.crashStates ?? 0;
      if (run.cpuSeconds !== null) cpu.push(run.cpuSeconds);
    }
  }
  const grades = byUser[modes[0]!.name]!;
  line("(b) full grade of the solution", `${fmt(median(grades), 1)} s, ${crashStates} crash states`, grades);
  if (cpu.length > 0) line("    its processor time", `${fmt(median(cpu), 1)} s (${fmt(median(cpu) / median(grades), 2)} processors busy)`, cpu);
  // One more full grade, its processes charging their processor time to causes (GRADE_CPU_CAUSES):
  // apart from the timed ones, whose processes are not asked to write records as they end.
  const causes = await profiledGrade(work, ["--target", "solution", "--json", path.join(work, "profiled.json"), "--no-cache"]);
  for (const l of causeProfileLines(causes)) console.log(`    ${l}`);
  // Each deliverable alone: processor times add up where wall times side by side do not.
  const alone = await deliverablesAlone(work, Object.keys(byDeliverable));
  console.log("    each deliverable graded alone (--only), wall and processor time, once:");
  for (const [id, run] of Object.entries(alone)) console.log(`      ${id.padEnd(26)} ${fmt(run.seconds, 1)} s, ${run.cpuSeconds === null ? "processor time not measured" : `${fmt(run.cpuSeconds, 1)} s of processors`}`);
  // A student's first grades, cold: the untouched starter, where every deliverable is not started,
  // and the starter with the reference's checkpoint.ts, where only Phase 1 and the bonus tiers on
  // checkpoint.ts are graded (both exit 1: a core check failed).
  const starterJson = path.join(work, "starter.json");
  const phase1Done = path.join(work, "phase1-done");
  makePhase1Done(phase1Done);
  const starter: { seconds: number[]; cpu: number[] } = { seconds: [], cpu: [] };
  const phase1: { seconds: number[]; cpu: number[] } = { seconds: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    for (const [into, target, json] of [[starter, "starter", starterJson], [phase1, phase1Done, path.join(work, "phase1-done.json")]] as const) {
      const run = await timedRun(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", target, "--json", json, "--no-cache"], { exitCodes: [1] });
      into.seconds.push(run.seconds);
      if (run.cpuSeconds !== null) into.cpu.push(run.cpuSeconds);
    }
  }
  line("(b) the untouched starter, cold", `${fmt(median(starter.seconds), 1)} s`, starter.seconds);
  if (starter.cpu.length > 0) line("    its processor time", `${fmt(median(starter.cpu), 1)} s`, starter.cpu);
  line("    Phase 1 done, the rest not", `${fmt(median(phase1.seconds), 1)} s`, phase1.seconds);
  if (phase1.cpu.length > 0) line("    its processor time", `${fmt(median(phase1.cpu), 1)} s`, phase1.cpu);
  // The page every grade writes: the solution's (every check passed) and the starter's (every check failed).
  const html = Object.fromEntries(
    [["solution", path.join(work, "report.json")], ["starter", starterJson]].map(([name, file]) => [name!, htmlCost(JSON.parse(fs.readFileSync(file!, "utf8")) as Report, Math.max(5, runs))]),
  );
  for (const [name, cost] of Object.entries(html)) line(`    HTML page, ${name}`, `${fmt(median(cost.ms), 1)} ms (${fmt((median(cost.ms) / 1000 / median(grades)) * 100, 2)}% of the grade), ${fmt(cost.bytes / 1024, 1)} KiB`, cost.ms);
  // The pages with the most pictures: buggy fixtures graded in full, each page beside its own grade.
  const drawn: Record<string, { ms: number; bytes: number; pictures: number; ofGrade: number; gradeSeconds: number }> = {};
  for (const fixture of DRAWN_FIXTURES) {
    const { report, seconds } = await gradeFixture(fixture, work);
    const cost = htmlCost(report, Math.max(5, runs));
    const pictures = report.deliverables.flatMap((d) => d.checks).filter((c) => c.picture).length;
    drawn[fixture] = { ms: median(cost.ms), bytes: cost.bytes, pictures, ofGrade: median(cost.ms) / 1000 / seconds, gradeSeconds: seconds };
    line(`    HTML page, ${fixture}`, `${fmt(median(cost.ms), 1)} ms (${fmt((median(cost.ms) / 1000 / seconds) * 100, 2)}% of its ${fmt(seconds, 1)} s grade), ${pictures} pictures, ${fmt(cost.bytes / 1024, 1)} KiB`, cost.ms);
  }
  console.log("    each deliverable's wall time in it (they run side by side, so these add up to more):");
  for (const [id, seconds] of Object.entries(byDeliverable)) line(`      ${id}`, `${fmt(median(seconds), 1)} s, ${statesOf[id]} crash states`, seconds);
  // The student's loop: the verdict cache, warm, beside the cold grade just measured.
  const cache = await cacheCost(work, runs);
  line("(e) with the cache, unchanged", `${fmt(median(cache.unchanged), 2)} s, ${fmt(median(cache.unchanged) / median(grades), 3)}x the cold grade`, cache.unchanged);
  line("    runner.ts changed", `${fmt(median(cache.runnerChanged), 1)} s, ${fmt(median(cache.runnerChanged) / median(grades), 2)}x the cold grade`, cache.runnerChanged);
  if (byUser.separate) {
    line("    code as the grader's user", `${fmt(median(byUser.shared!), 1)} s`, byUser.shared!);
    console.log(`    users of its own cost: ${fmt(median(byUser.separate) / median(byUser.shared!), 2)}x the grade time (medians, side by side)`);
  } else console.log("    (not root: the submitted code runs as the grader's user; users of their own are measured as root)");
  return { grades, byUser, crashStates, byDeliverable, statesOf, cpu, causes, alone, starter, phase1, html, drawn, cache };
}

/** What --json keeps of the full grades. */
function gradeNumbers({ grades, byUser, crashStates, byDeliverable, statesOf, cpu, causes, alone, starter, phase1, html, drawn, cache }: Awaited<ReturnType<typeof gradeCosts>>) {
  return {
    gradeSeconds: median(grades),
    gradeCpuSeconds: cpu.length > 0 ? median(cpu) : null,
    gradeCpuByCause: { seconds: causes.seconds, totalSeconds: causes.totalSeconds, processes: causes.processes, causes: Object.fromEntries(causes.lines.map((l) => [l.id, l.seconds])) },
    starterGradeSeconds: median(starter.seconds),
    starterGradeCpuSeconds: starter.cpu.length > 0 ? median(starter.cpu) : null,
    starterRuns: starter,
    phase1DoneGradeSeconds: median(phase1.seconds),
    phase1DoneGradeCpuSeconds: phase1.cpu.length > 0 ? median(phase1.cpu) : null,
    phase1DoneRuns: phase1,
    deliverablesAlone: alone,
    gradeSecondsByUser: byUser,
    gradeCrashStates: crashStates,
    cache: { unchangedSeconds: median(cache.unchanged), runnerChangedSeconds: median(cache.runnerChanged), ratioUnchanged: median(cache.unchanged) / median(grades), ratioRunnerChanged: median(cache.runnerChanged) / median(grades), runs: cache },
    deliverableSeconds: Object.fromEntries(Object.entries(byDeliverable).map(([id, s]) => [id, median(s)])),
    deliverableCrashStates: statesOf,
    html: { ...Object.fromEntries(Object.entries(html).map(([name, cost]) => [name, { ms: median(cost.ms), bytes: cost.bytes, ofGrade: median(cost.ms) / 1000 / median(grades) }])), ...drawn },
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function label(bytes: number, digits = 0): string {
  return bytes >= MiB ? `${fmt(bytes / MiB, digits)} MiB` : `${fmt(bytes / KiB, digits)} KiB`;
}

function line(what: string, value: string, samples: number[]): void {
  console.log(`${what.padEnd(32)} ${value.padEnd(28)} (median of ${samples.length}: ${samples.map((s) => fmt(s, s < 10 ? 2 : 0)).join(", ")})`);
}

main().catch((error) => {
  console.error(`bench: ${(error as Error)?.stack ?? error}`);
  process.exit(1);
});
