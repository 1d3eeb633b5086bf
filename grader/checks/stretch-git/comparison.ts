// stretch-git.comparison, reported and never scored: the student's two checkpoints side by side,
// runner.ts (a file written through checkpoint.ts) and git-checkpoint.ts (git commits), each
// with the student's own files: the time per checkpoint, how recovery ends from the same kinds of
// crash point, and the disk space a finished run leaves.
import { commandSpans } from "../../crash/commands.js";
import type { Cut } from "../../crash/model.js";
import { describeResult, namedFile } from "../../grading/calls.js";
import type { MeasurementDefinition } from "../../grading/measure.js";
import type { MeasurementReport } from "../../contract/measurement.js";
import { SandboxFailure, type Sandbox } from "../../sandbox/supervisor/host-client.js";
import { sandboxStory } from "../../grading/property.js";
import { boundaryCuts, judgeRecovery, recordRun, type RecordedRun } from "../phase2/crash-recovery.js";
import { wrongWords } from "../../report/finding-story.js";
import { doneEffects, gradedTask, type GradedTask } from "../phase2/ledger.js";
import { FILE_SETUP, runTaskStep, type TaskSetup } from "../phase2/task-run.js";
import { GIT_SETUP, gitUnavailable } from "./git-setup.js";
import { comparisonSteps } from "../../rubric-task.js";

const TITLE = "File checkpoint vs git checkpoint (reported, not scored)";

/** Crash-free runs timed per implementation, in turns (the median is reported). */
const RUNS = 3;

/** Where, in each step's checkpoint, a crash point lies. */
const KINDS = ["state write", "before commit", "inside commit", "after commit"] as const;
export type Kind = (typeof KINDS)[number];

/** What one implementation measured. */
export interface Measured {
  file: string;
  msPerCheckpoint?: number;
  recovery?: Record<Kind, { recovered: number; of: number }>;
  disk?: { bytes: number; files: number };
  problem?: string;
}

/** Why an implementation was not measured: the words, and whether they begin by naming its file ("runner.ts is missing from ..."). */
export interface NotMeasured {
  said: string;
  namesFile: boolean;
}

export const comparison: MeasurementDefinition = {
  id: "stretch-git.comparison",
  title: TITLE,
  modules: ["runner", "git-checkpoint"],
  async run(ctx, unusable) {
    const task = gradedTask(ctx.config.rubric.task);
    // Each in a sandbox of its own: one that kills its process leaves the other measured.
    const both = ([["runner.ts", FILE_SETUP], ["git-checkpoint.ts", GIT_SETUP]] as const).map(([file, setup]) => {
      // A module that could not be compiled is told in its own file's story (grading/prepare.ts).
      const unusableHere = unusable[setup.module];
      const git = setup === GIT_SETUP ? gitUnavailable() : null;
      const why: NotMeasured | undefined = unusableHere !== undefined ? { said: unusableHere, namesFile: true } : git !== null ? { said: git, namesFile: false } : undefined;
      return { setup, box: ctx.sandbox(), times: [] as number[], measured: { file, problem: why?.said } as Measured, why };
    });
    const notMeasured = (one: (typeof both)[number], why: NotMeasured) => {
      one.why = why;
      one.measured.problem = why.said;
    };
    const attempt = async (one: (typeof both)[number], work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        if (!(error instanceof SandboxFailure)) throw error;
        notMeasured(one, { said: sandboxStory(error), namesFile: false });
      }
    };
    // Timed in turns, one run of each, so that both see the machine as busy as the other did.
    for (let i = 0; i < RUNS; i++) {
      for (const one of both.filter((b) => !b.measured.problem)) {
        await attempt(one, async () => {
          const run = await one.box.run(one.setup.module, { steps: [runTaskStep(undefined, one.setup.checkpoint)] }, { listDisk: i === 0 });
          const r = run.results[0]!;
          if (r.status !== "returned") notMeasured(one, { said: describeResult("runTask", r), namesFile: namedFile("runTask", r) === one.measured.file });
          else one.times.push((r.ms ?? 0) / task.steps);
          const files = (run.disk ?? []).filter((f) => !f.path.startsWith("$TMPDIR"));
          one.measured.disk ??= { bytes: files.reduce((n, f) => n + f.size, 0), files: files.length };
        });
      }
    }
    for (const one of both.filter((b) => !b.measured.problem)) {
      one.measured.msPerCheckpoint = median(one.times);
      await attempt(one, async () => {
        const found = await recoveries(task, one.box, one.setup);
        if (typeof found === "string") notMeasured(one, { said: found, namesFile: false });
        else one.measured.recovery = found;
      });
    }
    return comparisonTable(both.map((b) => b.measured), both.map((b) => b.why), comparisonSteps(task));
  },
};

/** Recovers from each comparison crash point of a recorded crash-free run, and counts the recoveries that ended right. */
async function recoveries(task: GradedTask, box: Sandbox, setup: TaskSetup): Promise<NonNullable<Measured["recovery"]> | string> {
  const recorded = await recordRun(box, [], undefined, setup);
  if ("failed" in recorded) return wrongWords(recorded.failed);
  // The steps whose checkpoints are crashed, the same for both (every kind of point in each).
  const points = comparisonCuts(recorded, comparisonSteps(task));
  const outcomes = await box.runMany(setup.module, recorded.traceId, points.map((p) => p.cut), [runTaskStep(undefined, setup.checkpoint)], { inspectGit: setup.inspectGit });
  const recovery = Object.fromEntries(KINDS.map((k) => [k, { recovered: 0, of: 0 }])) as Measured["recovery"] & {};
  outcomes.forEach((o, i) => {
    const tally = recovery[points[i]!.kind];
    const crashes = [{ run: recorded, cut: points[i]!.cut }];
    tally.of++;
    if (!(judgeRecovery(task, crashes, o.results[0]!, doneEffects(o.effects, 2)) ?? setup.judgeRepo?.(o.git, task.steps))) tally.recovered++;
  });
  return recovery;
}

/**
 * The same kinds of crash point in the checkpoints of `crashed` steps, for either implementation: in the
 * middle of the state's last write before the commit (git's last command that writes objects,
 * or the file's last rename), just before that commit, inside it (git only: a rename cannot be
 * cut), and at the step's boundary, after it.
 */
function comparisonCuts(run: RecordedRun, crashed: number[]): { kind: Kind; cut: Cut }[] {
  const { entries } = run.trace;
  const boundaries = boundaryCuts(run.trace).map((c) => c.at);
  const spans = commandSpans(run.trace, run.start);
  const points: { kind: Kind; cut: Cut }[] = [];
  entries.forEach((e, done) => {
    if (e.kind !== "effect" || e.phase !== "done" || !crashed.includes(e.step)) return;
    const end = boundaries.find((b) => b > done) ?? entries.length;
    const commit = spans.filter((s) => s.start > done && s.end <= end && s.killedInside !== undefined).at(-1);
    const rename = commit ? -1 : lastIndex(entries, done, end, (x) => x.kind === "rename");
    const commitAt = commit ? commit.start : rename >= 0 ? rename : end;
    const write = lastIndex(entries, done, commitAt, (x) => x.kind === "write" && !x.api.startsWith("exec:"));
    const state = entries[write];
    if (state?.kind === "write" && state.bytes.byteLength > 1) points.push({ kind: "state write", cut: { at: write, bytes: state.bytes.byteLength >> 1 } });
    if (commitAt < end) points.push({ kind: "before commit", cut: { at: commitAt } });
    if (commit) points.push({ kind: "inside commit", cut: { at: commit.killedInside! } });
    points.push({ kind: "after commit", cut: { at: end } });
  });
  return points;
}

/** The table: one column per implementation, crashed in the checkpoints of `crashed` steps; `whyNot` says why a column was not measured. */
export function comparisonTable(measured: Measured[], whyNot: (NotMeasured | undefined)[], crashed: number[]): MeasurementReport {
  const cell = (m: Measured, f: (m: Measured) => string | undefined) => (m.problem ? "–" : (f(m) ?? "–"));
  const recovered = (kind: Kind) => (m: Measured) => {
    const t = m.recovery?.[kind];
    if (t && t.of > 0) return `${t.recovered} of ${t.of}`;
    if (kind !== "inside commit" || m.file !== "runner.ts") return undefined;
    // A file checkpoint's commit is its rename, which no crash can cut inside; a save that made
    // none in those steps (it wrote in place, or appended) has neither.
    return (m.recovery?.["before commit"].of ?? 0) > 0 ? "– (a rename is atomic)" : "– (no commit, no rename)";
  };
  const problems = measured.flatMap((m, i) => (whyNot[i] ? [notMeasured(m.file, whyNot[i])] : []));
  return {
    id: "stretch-git.comparison",
    title: TITLE,
    columns: measured.map((m) => m.file),
    // Nothing to compare when neither could be measured: the notes say why.
    rows: problems.length === measured.length ? [] : [
      { label: `time per checkpoint (median, ${RUNS} runs)`, cells: measured.map((m) => cell(m, (x) => x.msPerCheckpoint?.toFixed(2) + " ms")), varies: true },
      { label: "recovered, killed in the state write", cells: measured.map((m) => cell(m, recovered("state write"))) },
      { label: "recovered, killed before the commit/rename", cells: measured.map((m) => cell(m, recovered("before commit"))) },
      { label: "recovered, killed inside the commit", cells: measured.map((m) => cell(m, recovered("inside commit"))) },
      { label: "recovered, killed right after the commit/rename", cells: measured.map((m) => cell(m, recovered("after commit"))) },
      { label: "disk space after a run", cells: measured.map((m) => cell(m, (x) => x.disk && `${kib(x.disk.bytes)} in ${x.disk.files} file${x.disk.files === 1 ? "" : "s"}`)) },
    ],
    note: [...(problems.length === measured.length ? [] : explained(measured.length - problems.length, crashed)), ...problems.map((p) => `Not measured: ${p}`)].join("\n"),
    data: { runs: RUNS, implementations: measured },
  };
}

/** Why `file` was not measured, as a sentence naming it once: "runner.ts: runTask is not implemented yet.", "starter/runner.ts does not compile: …." (words that name the file already). */
export function notMeasured(file: string, { said, namesFile }: NotMeasured): string {
  return sentence(namesFile ? said : `${file}: ${said}`);
}

/** `words` ended with a full stop, once. */
function sentence(words: string): string {
  return words.endsWith(".") ? words : `${words}.`;
}

/** What the numbers mean, under the table (`shown`: how many of its columns were measured). */
function explained(shown: number, crashed: number[]): string[] {
  const where = `the checkpoints of steps ${crashed.join(", ")}`;
  return [
    "Times leave out the task's own steps; the folder is a RAM disk when the machine has one, where fsync costs nothing.",
    shown > 1 ? `Both crashed at the same kinds of point in ${where}.` : `It was crashed in ${where}.`,
    "Disk space counts every file in the checkpoint's folder, .git included (it depends on git's version).",
  ];
}

function lastIndex<T>(items: readonly T[], after: number, before: number, test: (item: T) => boolean): number {
  for (let i = before - 1; i > after; i--) if (test(items[i]!)) return i;
  return -1;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}
