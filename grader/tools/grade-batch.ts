// `npm run grade-batch -- <submissions-dir> --out <file.csv>`: the authoritative grade of a class.
// Grades every submission folder with this repository's grader, rubric and lab (never a
// submission's own copies), several at once, and writes the gradebook and each report.
// Exit 0 when the gradebook was written (error rows included), 2 when the batch could not run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dir } from "tmp-promise";
import { REPO_ROOT } from "../paths.js";
import { unknownSelections } from "../cli/args.js";
import { cannotStart } from "../cli/command-line.js";
import { DEFINED_IDS } from "../checks/ids.js";
import { loadRubric, type Rubric } from "../rubric.js";
import { gradeBoundMs } from "../sandbox/supervisor/limits.js";
import { gradesAsRoot, keepFromTargets } from "../sandbox/identity/target-user.js";
import { USAGE, parseBatchArgs, type BatchArgs } from "./batch/args.js";
import type { Row } from "./batch/gradebook.js";
import { gradebookPaths, writeGradebook } from "./batch/gradebook-files.js";
import { defaultJobs, loadFactor } from "./batch/load.js";
import { modifiedFiles, pristineDigests } from "./batch/modified.js";
import { Progress, clock } from "./batch/progress.js";
import { runGrade, stopAllGrades } from "./batch/run-grade.js";
import { shardOf } from "./batch/shard.js";
import { findSubmissions, holdsMoreThanStarter, type Submission } from "./batch/submissions.js";
import { applyRosterMap, readRosterMap, type Mapped, type RosterMap } from "./batch/roster-map.js";
import { steadyNow } from "../steady-clock.js";

async function main(argv: string[]): Promise<number> {
  let args: BatchArgs;
  let rubric: Rubric;
  let rosterMap: RosterMap | undefined;
  try {
    args = parseBatchArgs(argv);
    if (args.help) return console.log(USAGE), 0;
    rubric = loadRubric(args.rubric && path.resolve(args.rubric), { grader: DEFINED_IDS });
    const unknown = unknownSelections(rubric, args.only);
    if (unknown) throw new Error(unknown);
    if (!fs.statSync(args.submissions, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`the submissions folder ${JSON.stringify(args.submissions)} is not a folder`);
    // Read before any grade starts: a mistake in it must not cost a class's grading time.
    rosterMap = args.rosterMap === undefined ? undefined : readRosterMap(args.rosterMap);
  } catch (error) {
    console.error(cannotStart("grade-batch", error, USAGE));
    return 2;
  }
  const out = path.resolve(args.out);
  const reportsDir = gradebookPaths(out).reports;
  const all = findSubmissions(path.resolve(args.submissions), [reportsDir]);
  if (all.length === 0) {
    console.error(`grade-batch: found no submission folders in ${JSON.stringify(args.submissions)}; expected one folder per submission`);
    return 2;
  }
  const submissions = args.shard ? shardOf(all, args.shard, (s) => s.name) : all;
  const ofShard = args.shard ? ` of ${all.length} (shard ${args.shard.index}/${args.shard.count})` : "";
  // A shard may hold none when there are more shards than submissions: its gradebook is empty, not missing.
  if (submissions.length === 0) {
    writeGradebook({ csv: out, rubric, rows: [] });
    console.error(`Wrote ${args.out}: no submissions${ofShard}.`);
    return 0;
  }
  fs.mkdirSync(reportsDir, { recursive: true });
  // As root, each grade runs its submission as users of their own: they must not read another
  // student's submission or report.
  for (const folder of [path.resolve(args.submissions), reportsDir]) keepFromTargets(folder, { separate: gradesAsRoot() });

  const cores = os.availableParallelism();
  const jobs = Math.min(args.jobs ?? defaultJobs(cores), submissions.length);
  // The rubric's limits count processor time, which grades side by side do not change; only the
  // wall time each grade may take grows with the grades that share the cores.
  const wallMs = args.timeoutMs ?? Math.ceil(gradeBoundMs(rubric.limits) * loadFactor(jobs, cores));
  const rubricArgs = args.rubric ? ["--rubric", path.resolve(args.rubric)] : [];
  const scratch = await dir({ unsafeCleanup: true, prefix: "grade-batch-" });
  // Interrupted: the grades running are stopped, no other starts, and no gradebook is written.
  let interrupted: Promise<void> | undefined;
  const onSignal = () => void (interrupted ??= stopAllGrades());
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    const pristine = pristineDigests(REPO_ROOT);
    console.error(`Grading ${submissions.length} submission${submissions.length === 1 ? "" : "s"}${ofShard}, ${jobs} at a time on ${cores} cores (at most ${clock(wallMs)} each).`);
    const progress = new Progress(submissions.length);
    const started = steadyNow();
    const rows = await inParallel(submissions, jobs, async (s) => {
      const row = await gradeOne(s, { reportsDir, out, pristine, wallMs, args: [...rubricArgs, ...args.gradeArgs] });
      progress.finished({ submission: s.name, failed: !!row.error, outcome: row.error ? `error: ${row.error}` : describe(row) });
      return row;
    });
    progress.close();
    if (interrupted) {
      await interrupted;
      console.error("grade-batch: interrupted; no gradebook written");
      return 130;
    }
    const book = rosterMap ? applyRosterMap(rows, rosterMap) : { rows, notInMap: [], noSubmission: [] };
    writeGradebook({ csv: out, rubric, rows: book.rows, rosterMap });
    if (rosterMap) console.error(rosterMapLine(rosterMap, book));
    // As root, a grade that could not run its submission as a user of its own says so (once per batch).
    const exposed = rows.filter((r) => r.report?.targetUser?.root && !r.report.targetUser.separate);
    if (exposed.length > 0) console.error(`Note: ${exposed.length} grade${exposed.length === 1 ? "" : "s"} ran the submitted code as the grader's own user (${exposed[0]!.report!.targetUser!.why}): it could reach the grader's files.`);
    const networked = rows.filter((r) => r.report?.targetUser?.separate && r.report.targetUser.network);
    if (networked.length > 0) console.error(`Note: ${networked.length} grade${networked.length === 1 ? "" : "s"} let the submitted code use the network: ${networked[0]!.report!.targetUser!.networkWhy}.`);
    const errors = book.rows.filter((r) => r.error).length;
    console.error(`Wrote ${args.out}: ${book.rows.length} submissions, ${errors} error${errors === 1 ? "" : "s"}, in ${clock(steadyNow() - started)}.`);
    return 0;
  } finally {
    await scratch.cleanup();
  }
}

/** Grades one submission into its row: layout, modified files, the grade itself. */
async function gradeOne(s: Submission, opts: { reportsDir: string; out: string; pristine: Map<string, string>; wallMs: number; args: string[] }): Promise<Row> {
  if (s.layout.kind === "unknown") return { submission: s.name, report: null, error: s.layout.problem, modified: [] };
  const modified = s.layout.kind === "clone" && holdsMoreThanStarter(s.dir) ? modifiedFiles(s.dir, opts.pristine) : [];
  const json = path.join(opts.reportsDir, `${s.name}.json`);
  const outcome = await runGrade({ cwd: s.layout.cwd, target: s.layout.target, json, args: opts.args, wallMs: opts.wallMs });
  const reportPath = outcome.report ? path.relative(path.dirname(opts.out), json).split(path.sep).join("/") : undefined;
  return { submission: s.name, report: outcome.report, error: outcome.error, modified, reportPath };
}

/** Runs `work` on every item, `jobs` at a time; the results keep the items' order. */
async function inParallel<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return results;
}

/** What the roster map matched: every submission, or which it does not name and which of its students have none. */
function rosterMapLine(map: RosterMap, book: Mapped): string {
  const list = (names: string[]) => (names.length > 10 ? `${names.slice(0, 10).join(", ")} and ${names.length - 10} more` : names.join(", "));
  const lines = [`${map.file}: ${map.entries.length - book.noSubmission.length} of its ${map.entries.length} students matched a submission.`];
  if (book.notInMap.length > 0) lines.push(`Not in ${map.file}, so no student id: ${list(book.notInMap)}.`);
  if (book.noSubmission.length > 0) lines.push(`No submission, so an error row: ${list(book.noSubmission.map((e) => `${e.key} (${e.studentId})`))}.`);
  return lines.join("\n");
}

/** "85/100, bonus 20/40". */
function describe(row: Row): string {
  const r = row.report!;
  return `${r.score}/${r.maxScore}${r.maxBonus > 0 ? `, bonus ${r.bonus}/${r.maxBonus}` : ""}${row.modified.length > 0 ? " (grader files modified)" : ""}`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error) => {
    console.error(`grade-batch: could not finish: ${(error as Error)?.message ?? error}`);
    await stopAllGrades();
    process.exit(2);
  },
);
