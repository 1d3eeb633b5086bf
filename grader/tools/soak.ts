// `npm run soak`: grades the same targets many times in a row and checks that every grade gives
// the same verdicts, points and messages (durations aside). Not part of `npm test`: it takes minutes.
//
//   npm run soak                        20 grades of solution/ and 20 of one buggy fixture
//   npm run soak -- --runs 5            fewer grades each
//   npm run soak -- --target <dir>      that folder instead (repeatable; a fixture folder, with its
//                                       fixture.json, is graded over the solution as the tests do)
//   npm run soak -- --load 4            under load: 4 spinning processes per processor for the whole
//                                       soak, and by default the targets a loaded runner must agree on
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../paths.js";
import type { Report } from "../report/report.js";
import { comparable, composeTarget, grade } from "../test/support/grade.js";
import { LoadMeter, keepProcessorsBusy } from "./soak/busy.js";
import { steadyNow } from "../steady-clock.js";

const DEFAULT_TARGETS = ["solution", "grader/fixtures/phase2/skip-step-on-resume"];
/** Under load: the solution, a correct submission in another style, and buggy fixtures of three kinds of check. */
const LOADED_TARGETS = ["solution", "grader/fixtures/correct/chunked-writes", "grader/fixtures/phase2/skip-step-on-resume", "grader/fixtures/phase1/write-in-place", "grader/fixtures/concurrency/fixed-temp-name"];

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "20" }, target: { type: "string", multiple: true }, load: { type: "string" } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 2) throw new Error(`--runs expects a whole number of at least 2, got ${JSON.stringify(values.runs)}`);
  const perCore = values.load === undefined ? 0 : Number(values.load);
  if (!Number.isInteger(perCore) || perCore < 0) throw new Error(`--load expects a whole number of spinning processes per processor, got ${JSON.stringify(values.load)}`);
  const targets = (values.target ?? (perCore > 0 ? LOADED_TARGETS : DEFAULT_TARGETS)).map((t) => {
    const dir = path.resolve(REPO_ROOT, t);
    return { label: path.relative(REPO_ROOT, dir) || t, dir, fixture: fs.existsSync(path.join(dir, "fixture.json")) };
  });
  const busy = perCore > 0 ? keepProcessorsBusy(perCore) : null;
  if (busy) console.log(`Under load: ${busy.count} spinning processes (${perCore} per processor, ${os.availableParallelism()} processors) for the whole soak.`);
  const meter = new LoadMeter();
  let failures = 0;
  try {
    for (const t of targets) failures += await soakTarget(t, runs);
  } finally {
    await busy?.stop();
    meter.stop();
  }
  const load = meter.summary();
  if (load) console.log(`\nLoad average (1 min) over the soak: median ${load.median.toFixed(1)}, min ${load.min.toFixed(1)}, max ${load.max.toFixed(1)} on ${os.availableParallelism()} processors.`);
  return failures === 0 ? 0 : 1;
}

/** Grades one target `runs` times; the number of grades whose report differs from the first. */
async function soakTarget(t: { label: string; dir: string; fixture: boolean }, runs: number): Promise<number> {
  const composed = t.fixture ? await composeTarget(t.dir) : null;
  try {
    const seconds: number[] = [];
    let first: { report: Report; text: string } | null = null;
    const differing: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const started = steadyNow();
      const run = await grade(composed?.path ?? t.dir);
      seconds.push((steadyNow() - started) / 1000);
      if (!run.report) throw new Error(`grade ${i} of ${t.label} wrote no report (exit ${run.exitCode}):\n${run.stderr.slice(-2000)}`);
      const text = JSON.stringify(comparable(run.report));
      first ??= { report: run.report, text };
      if (text !== first.text) {
        differing.push(i);
        console.log(`${process.stdout.isTTY ? "\n" : ""}  grade ${i} differs from grade 1 in: ${differingParts(first.report, run.report).join(", ") || "fields outside the checks and measurements"} (${keep(t.label, 1, first.report)}, ${keep(t.label, i, run.report)})`);
      }
      // A terminal redraws one progress line; a log (a CI job, a file) gets a line a grade.
      const progress = `${t.label}: ${i}/${runs} grades, ${differing.length} different from the first`;
      if (process.stdout.isTTY) process.stdout.write(`\r${progress}`);
      else console.log(`${progress} (this one ${seconds.at(-1)!.toFixed(1)} s)`);
    }
    seconds.sort((a, b) => a - b);
    const median = seconds[Math.floor(seconds.length / 2)]!;
    const r = first!.report;
    console.log(`${process.stdout.isTTY ? "\n" : ""}  score ${r.score}/${r.maxScore}, bonus ${r.bonus}/${r.maxBonus}, ${r.stats.crashStates} crash states; median ${median.toFixed(1)} s a grade (min ${seconds[0]!.toFixed(1)}, max ${seconds.at(-1)!.toFixed(1)})`);
    console.log(differing.length === 0 ? `  all ${runs} reports identical` : `  DIFFERENT reports from grade(s) ${differing.join(", ")}`);
    return differing.length;
  } finally {
    await composed?.cleanup();
  }
}

/** Keeps a report that differed, and the first, to see which field it was; returns its path. */
function keep(label: string, n: number, report: Report): string {
  const file = path.join(REPO_ROOT, ".grade", `soak-${label.replace(/\W+/g, "-")}-${n}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
  return path.relative(REPO_ROOT, file);
}

/** The ids of the checks whose status, points or message differ between two reports, and of the measurements whose tables differ. */
function differingParts(a: Report, b: Report): string[] {
  const parts = (r: Report) => {
    const c = comparable(r);
    const checks = c.deliverables.flatMap((d) => d.checks).map((k) => [k.id, JSON.stringify([k.status, k.points, k.message])] as const);
    const measured = c.deliverables.flatMap((d) => d.measurements ?? []).map((m) => [m.id, JSON.stringify(m)] as const);
    return new Map([...checks, ...measured]);
  };
  const [pa, pb] = [parts(a), parts(b)];
  return [...new Set([...pa.keys(), ...pb.keys()])].filter((id) => pa.get(id) !== pb.get(id));
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`soak: ${(error as Error).message}`);
    process.exit(2);
  },
);
