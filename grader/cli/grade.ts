// `npm run grade`: grades a target folder and prints the scoreboard; exit 0 when every selected
// core check passed, 1 when some failed, 2 when grading could not run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkCommand, isSelected, type GradeConfig } from "../grading/config.js";
import { writeWhole } from "../write-whole.js";
import { REPO_ROOT } from "../paths.js";
import { formatOf } from "../report/formats/index.js";
import { renderHtmlReport } from "../report/html/render.js";
import { buildReport, exitCode, hasPicture, type Report } from "../report/report.js";
import { gradedWith } from "../report/graded-with.js";
import { VerdictCollector } from "../report/reporter.js";
import { startLiveOutput } from "../report/live/start.js";
import { renderScoreboard } from "../report/terminal.js";
import { renderReplay, replayOutcome } from "../report/replay.js";
import { outputWidth, wantsColor } from "../report/layout.js";
import type { CheckMeta } from "../contract/verdict.js";
import { postVerdict } from "../grading/verdict-board.js";
import { VerdictCache, cacheOff, lookUp, store, type CacheLookup } from "./verdict-cache.js";
import { loadRubric, withRequirements, type Rubric } from "../rubric.js";
import { buildHost } from "../sandbox/supervisor/build-host.js";
import { checkWallCapMs } from "../sandbox/supervisor/limits.js";
import type { Limits } from "../sandbox/messages/limits.js";
import { endProcessesBelow } from "../sandbox/identity/processes.js";
import { chooseIdentity, endTargets, keepFromTargets, targetUserReport, type TargetIdentity } from "../sandbox/identity/target-user.js";
import { USAGE, parseArgs, unknownSelections, type GradeArgs } from "./args.js";
import { cannotStart } from "./command-line.js";
import { DEFINED_IDS } from "../checks/ids.js";
import { CHECKS_BUNDLE, compileChecks } from "./compile-checks.js";
import { notStartedVerdicts } from "../checks/not-started-probe.js";
import { inGivenOrder, runOrder } from "./schedule.js";
import { LAST_REPORT, lastFullGrade, reportFiles } from "./report-files.js";
import { chargedUntilSettled, cpuLedger, startCpuLedger } from "../sandbox/messages/cpu-causes.js";
import { steadyNow } from "../steady-clock.js";

async function main(): Promise<number> {
  startCpuLedger("grade");
  cpuLedger()?.charge("start");
  let args: GradeArgs;
  let rubric: Rubric;
  try {
    args = parseArgs(process.argv.slice(2));
    if (args.help) return console.log(USAGE), 0;
    // Every deliverable and check against the grader's code, whatever --only selects.
    rubric = loadRubric(args.rubric && path.resolve(args.rubric), { grader: DEFINED_IDS });
  } catch (error) {
    console.error(cannotStart("grade", error, USAGE));
    return 2;
  }
  const targetDir = path.resolve(args.target);
  if (!fs.existsSync(targetDir) || !fs.statSync(targetDir).isDirectory()) {
    console.error(`grade: the target ${JSON.stringify(args.target)} is not a folder`);
    return 2;
  }
  const unknown = unknownSelections(rubric, args.only);
  if (unknown) {
    console.error(`grade: ${unknown}`);
    return 2;
  }
  if (args.watch) {
    const { watchAndGrade } = await import("./watch.js");
    return watchAndGrade(targetDir, process.argv.slice(2).filter((a) => a !== "--watch"));
  }
  // A report left by an earlier grade of the same kind must not pass for this one if this one
  // cannot finish; a replay writes none, and a partial grade leaves the full grade's (report-files.ts).
  const own = reportFiles({ only: args.only, replay: args.replay });
  for (const file of [own?.json, own?.html, args.json && path.resolve(args.json)]) if (file) fs.rmSync(file, { force: true });
  const started = steadyNow();
  // What this grade has made that must go when it ends, however it ends: its scratch folders
  // (on a tmpfs, in memory: a class's worth left behind would fill it) and its users' ids.
  const made: { dirs: string[]; identity?: TargetIdentity } = { dirs: [] };
  const removeScratch = () => {
    // No process is left to write anything into them once the grade ends: neither its own (the
    // vitest workers, the sandbox hosts, which outlive a grade stopped by a signal) nor the target's.
    endProcessesBelow();
    if (made.identity) endTargets(made.identity);
    for (const dir of made.dirs) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  // A grade stopped from outside (Ctrl-C, or grade-batch's time limit) still removes what it
  // made. The handlers go in before anything is made: until then a signal's default ends the
  // process at once, between a folder's making and the line that would have removed it.
  // A second signal while the first one cleans up (Ctrl-C pressed twice) waits for that cleanup.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    try {
      removeScratch();
    } finally {
      process.exit(128 + os.constants.signals[signal]);
    }
  };
  process.on("SIGINT", stop).on("SIGTERM", stop);
  try {
    const work = fs.realpathSync(fs.mkdtempSync(path.join(scratchRoot(), "checkpoint-grade-")));
    made.dirs.push(work);
    const tmpBase = otherFileSystem(work);
    if (tmpBase) made.dirs.push(tmpBase);
    // As root, submitted code runs as users of its own, who may enter the scratch folders and
    // nothing of the grader's: the repository (reference, rubric, reports) and the target folder.
    const identity: TargetIdentity = chooseIdentity([...made.dirs]);
    made.identity = identity;
    for (const dir of [REPO_ROOT, targetDir]) keepFromTargets(dir, identity);
    const config: GradeConfig = {
      targetDir,
      targetArg: targetLabel(args.target, targetDir),
      work,
      hostFile: await chargedUntilSettled("compile", () => buildHost(work)),
      tmpBase,
      seed: args.seed ?? rubric.seed,
      only: withRequirements(rubric, args.only),
      replayPath: args.replay,
      replayCheck: args.replay ? args.only[0] : undefined,
      rubric,
      identity,
    };
    const off = cacheOff({ noCache: args.noCache, replay: !!args.replay, env: process.env });
    const cache = off === null ? VerdictCache.open() : null;
    const { report: graded, verdicts } = await grade(config, started, args.only, cache);
    endTargets(identity); // before any report is written: nothing of the target's can rewrite it
    graded.targetUser = targetUserReport(identity);
    const scrubbed = [work, REPO_ROOT + path.sep, targetDir + path.sep];
    const report = scrubReport(graded, scrubbed);
    if (own) fs.mkdirSync(path.dirname(own.json), { recursive: true });
    for (const file of [own?.json, args.json && path.resolve(args.json)]) if (file) writeWhole(file, JSON.stringify(report, null, 2) + "\n");
    if (own) writeWhole(own.html, renderHtmlReport(report, own.json === LAST_REPORT ? {} : { fullGrade: lastFullGrade() }));
    writeOutputs(report, args.outputs, args.only);
    const color = wantsColor(process.stdout, process.env);
    if (args.replay) {
      // A replay runs one case: it says whether that case still fails, and grades nothing.
      const replayed = replayOutcome(verdicts, { checkId: args.only[0]!, path: args.replay, command: checkCommand(config, args.only[0]!), scrub: scrubber(scrubbed) });
      console.log(renderReplay(replayed, { color, width: outputWidth(process.stdout) }));
      return replayed.exitCode;
    }
    // The seconds the report records, which its HTML page gives too.
    console.log(renderScoreboard(report, { color, seconds: report.stats.durationMs / 1000, width: outputWidth(process.stdout), rubric }));
    // The last line, when a failure has a picture: the page draws it properly. A story alone
    // (a compile error) is all on the scoreboard already.
    if (own && hasPicture(report)) console.log(`See each crash: ${path.relative(process.cwd(), own.html)}`);
    return exitCode(report, args.only);
  } finally {
    removeScratch();
  }
}

/** Writes the report in each format asked for on the command line. */
function writeOutputs(report: Report, outputs: GradeArgs["outputs"], only: string[]): void {
  for (const { flag, file } of outputs) {
    try {
      writeWhole(path.resolve(file), formatOf(flag)!.render(report, { env: process.env, only }));
    } catch (error) {
      throw new GraderError(`${flag} ${file}: ${(error as Error).message}`);
    }
  }
}

/** A scratch folder in the system's temp folder when that is another file system than `work`. */
function otherFileSystem(work: string): string | undefined {
  if (fs.statSync(os.tmpdir()).dev === fs.statSync(work).dev) return undefined;
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "checkpoint-grade-tmp-")));
}

/** Runs the selected deliverables' checks under vitest and builds the report from their verdicts. */
async function grade(config: GradeConfig, started: number, only: string[], cache: VerdictCache | null): Promise<{ report: Report; verdicts: CheckMeta[] }> {
  const selected = config.rubric.deliverables.filter((d) => d.enabled && d.checks.length > 0 && d.checks.some((c) => isSelected(config, c.id)));
  // Each deliverable's row as soon as it is decided, where the scoreboard goes.
  // A replay runs one case and shows nothing live.
  const live = config.replayPath
    ? null
    : startLiveOutput(
        { rubric: config.rubric, deliverables: selected.map((d) => ({ id: d.id, checks: d.checks.filter((c) => isSelected(config, c.id)).map((c) => c.id) })), target: config.targetArg || "starter", seed: config.seed, startedAt: started },
        { stream: process.stdout, env: process.env },
      );
  const collector = new VerdictCollector(live ?? undefined);
  // A deliverable whose inputs did not change since a grade here takes that grade's verdicts; the
  // checks that build on them find them on the board as if they had just run.
  const found: CacheLookup = cache ? await lookUp(cache, config, selected.map((d) => d.id)) : { config, keys: new Map(), hits: new Map(), remeasure: [] };
  for (const [id, hit] of found.hits) {
    for (const v of hit.verdicts) postVerdict(config, v.id, v.status);
    live?.fromCache(id, hit.verdicts);
  }
  // A deliverable whose checks' verdicts were found but not all it measures runs only those measurements.
  const remeasured = new Set(found.remeasure.map((m) => m.deliverable));
  const takenFromCache = [...found.hits.values()].flatMap((h) => [...h.verdicts.map((v) => v.id), ...h.measurements.map((m) => m.report.id)]);
  let unrun: CheckMeta[] = [];
  let deliverables = selected.filter((d) => !found.hits.has(d.id) || remeasured.has(d.id));
  try {
    // A file whose functions all still throw the starter's error is known from one call of each: its
    // deliverables' checks fail unrun, and vitest runs only the rest (checks/not-started-probe.ts).
    unrun = await notStartedVerdicts(config, deliverables.filter((d) => !found.hits.has(d.id)));
    for (const meta of unrun) postVerdict(config, meta.id, meta.status), live?.decided(meta);
    deliverables = deliverables.filter((d) => !unrun.some((m) => m.deliverable === d.id));
    if (deliverables.length > 0) {
      const { startVitest } = await import("vitest/node"); // loaded only when there is something to grade
      const files = runOrder(config.rubric, deliverables, await chargedUntilSettled("compile", () => compileChecks(deliverables.map((d) => d.id))));
      // One worker per processor, each running deliverable after deliverable (isolate: false):
      // starting a worker costs about 0.8 s of processor, paid 8 times a full grade, not 2. Nothing
      // of a deliverable is shared through it: its compiled checks are a module of their own.
      const vitest = await startVitest(
        "test",
        files,
        { root: REPO_ROOT, config: false, watch: false, reporters: [collector], provide: { grade: { ...config, takenFromCache } }, testTimeout: checkTestTimeoutMs(config.rubric.limits), hookTimeout: 60_000, maxConcurrency: 5, include: [".grade/*.grade.mjs"], server: { deps: { external: [CHECKS_BUNDLE] } }, maxWorkers: Math.min(files.length, os.availableParallelism()), fileParallelism: true, isolate: false, sequence: { sequencer: inGivenOrder(files) } },
        { logLevel: "silent" },
      );
      await vitest.close();
    }
  } finally {
    live?.finish();
  }
  if (collector.errors.length > 0) throw new GraderError(collector.errors.join("\n"));
  if (cache) store(cache, found, deliverables.map((d) => d.id), collector);
  const hits = [...found.hits.values()];
  const metas = [...collector.verdicts, ...unrun, ...hits.flatMap((h) => h.verdicts)];
  const measurements = [...collector.measurements, ...hits.flatMap((h) => h.measurements)];
  const shown = (id: string) => isSelected(config, id) || config.only.length === 0;
  // What graded it is this grade's, never the cached verdicts' (their key holds the Node version and the grader's files).
  const report = buildReport({ rubric: config.rubric, target: config.targetArg || "starter", seed: config.seed, gradedWith: gradedWith(), metas, measurements, selected: shown, durationMs: steadyNow() - started, only, replay: config.replayPath, targetDir: config.targetDir });
  for (const d of report.deliverables) if (found.hits.has(d.id)) Object.assign(d, { cached: true }, remeasured.has(d.id) ? { remeasured: true } : {});
  return { report, verdicts: metas };
}

class GraderError extends Error {}

/** vitest's limit on one check's test: past the check's own wall-time cap, with the wait for a check it builds on and a minute more. */
function checkTestTimeoutMs(limits: Limits): number {
  return checkWallCapMs(limits) + limits.checkMs + 60_000;
}

/**
 * Removes machine paths that a target's own error messages may carry into the report, and shows
 * control characters (terminal escapes a target may print to paint a fake scoreboard) as text.
 */
function scrubReport(report: Report, paths: string[]): Report {
  const scrub = scrubber(paths);
  for (const d of report.deliverables) for (const c of d.checks) c.message = c.message === undefined ? undefined : scrub(c.message);
  return report;
}

/** A text without `paths` and with control characters shown as text (see scrubReport). */
function scrubber(paths: string[]): (text: string) => string {
  const visible = (t: string) => t.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return (text) => visible(paths.reduce((t, p) => t.split(p).join(""), text));
}

/** A tmpfs when there is one (crash states are rebuilt thousands of times), else the temp folder. */
function scratchRoot(): string {
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
}

/** How replay commands name the target: as the user typed it, relative to the current folder. */
function targetLabel(arg: string, abs: string): string {
  if (abs === path.join(REPO_ROOT, "starter") && process.cwd() === REPO_ROOT) return "";
  return path.isAbsolute(arg) ? path.relative(process.cwd(), abs) || "." : arg.replace(/\/+$/, "");
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof GraderError ? `grade: the grader could not run:\n${error.message}` : `grade: ${error?.stack ?? error}`);
    process.exit(2);
  },
);
