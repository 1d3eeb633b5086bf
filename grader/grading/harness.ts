// Turns a deliverable's checks into vitest tests: one test per check, its verdict in `meta`.
import { afterAll, beforeAll, describe, inject, test } from "vitest";
import { SandboxFailure } from "../sandbox/supervisor/host-client.js";
import { formatSeconds } from "../sandbox/messages/limits.js";
import { isSelected, type GradeConfig } from "./config.js";
import { CheckContext } from "./context.js";
import { assertChecksMatchManifest, deliverableModules, rubricDeliverable } from "../rubric.js";
import { prepareTarget, type PreparedTarget, type Variant } from "./prepare.js";
import { runMeasurement, type MeasurementDefinition } from "./measure.js";
import { checkWallCapMs } from "../sandbox/supervisor/limits.js";
import { ProcessorClock, withinDeadline } from "../sandbox/supervisor/processor-clock.js";
import { ReplayDoesNotFit, sandboxFinding } from "./property.js";
import { recordingTold } from "./told.js";
import type { Verdict } from "../contract/verdict.js";
import { postVerdict, showedABug, unmetElsewhere } from "./verdict-board.js";
import { tellCrashStates } from "../contract/crash-count.js";
import { cpuLedger, startCpuLedger } from "../sandbox/messages/cpu-causes.js";
import { steadyNow } from "../steady-clock.js";

// A grade's worker: what it used before its first deliverable's checks load is its start (GRADE_CPU_CAUSES).
startCpuLedger("worker");
cpuLedger()?.charge("start");

export interface CheckDefinition {
  id: string;
  run(ctx: CheckContext): Promise<Verdict>;
}

/** One deliverable as the grader's code defines it: its checks, and what it measures unscored. */
export interface DeliverableDefinition {
  /** The manifest's id ("phase2"): the manifest says which files it compiles and what each check is worth. */
  id: string;
  checks: CheckDefinition[];
  measurements?: MeasurementDefinition[];
}

/** A failed check, so vitest's own view of the run agrees with the report. */
class CheckFailed extends Error {}

/**
 * Registers the checks of one deliverable (and what it measures unscored). The files it compiles
 * come from the manifest, whose checks must be exactly these.
 */
export function gradeDeliverable(definition: DeliverableDefinition): void {
  const { id: deliverable, checks, measurements = [] } = definition;
  const config = inject("grade");
  assertChecksMatchManifest(config.rubric, deliverable, checks.map((c) => c.id));
  const files = deliverableModules(config.rubric, deliverable);
  describe.concurrent(deliverable, () => {
    // A worker may be ended without its exit handlers: its record is written after each deliverable.
    afterAll(() => cpuLedger()?.write());
    let target: PreparedTarget;
    let began = steadyNow();
    // The checks this grade runs here: none when every one came from the verdict cache and only
    // a measurement runs again (it prepares the files it measures itself).
    const runs = (c: { id: string }) => isSelected(config, c.id) && !config.takenFromCache?.includes(c.id);
    beforeAll(async () => {
      began = steadyNow();
      if (checks.some(runs)) target = await prepareTarget(config, files);
    });
    // The deliverable each earlier module belongs to: a stand-in for its file is tried only once it showed a bug.
    const ownerOf = (module: string) => (rubricDeliverable(config.rubric, deliverable).buildsOn ?? []).find((d) => deliverableModules(config.rubric, d).main === module);
    const bugShown = new Map<string, Promise<boolean | "not graded">>();
    /** Whether a variant with stand-ins for `standIns` is tried: each one's deliverable showed a bug; else the first one graded only in part here. */
    const warranted = async (standIns: string[]): Promise<true | false | { notGraded: string }> => {
      for (const module of standIns) {
        const owner = ownerOf(module);
        if (owner === undefined) continue;
        if (!bugShown.has(owner)) bugShown.set(owner, showedABug(config, owner));
        const shown = await bugShown.get(owner);
        if (shown === "not graded") return { notGraded: owner };
        if (!shown) return false;
      }
      return true;
    };
    for (const check of checks) {
      test.skipIf(!runs(check))(check.id, async ({ task, annotate }) => {
        // A check built on another deliverable's check that did not pass would score nothing: not run.
        const blockedBy = await unmetElsewhere(config, deliverable, check.id);
        const started = steadyNow();
        // The grade's live progress line shows the crash states checked so far, running checks' included.
        const contexts: CheckContext[] = [];
        const told = tellCrashStates(() => contexts.reduce((n, c) => n + c.crashStates, 0), annotate);
        const graded: ReturnType<typeof gradeCheck> = blockedBy ? Promise.resolve({ verdict: { status: "failed" }, crashStates: 0, replayed: false, limitHit: false }) : gradeCheck(check, config, target, warranted, contexts);
        const { verdict, crashStates, replayed, limitHit } = await graded.finally(told);
        const ended = steadyNow();
        postVerdict(config, check.id, verdict.status);
        task.meta.check = { id: check.id, deliverable, crashStates, durationMs: blockedBy ? 0 : ended - started, span: [began, ended], ...(replayed ? { replayed } : {}), ...(limitHit ? { limitHit } : {}), ...verdict };
        if (verdict.status !== "passed") throw new CheckFailed(verdict.message);
      });
    }
    for (const m of measurements) {
      test.skipIf(!runs(m))(m.id, async ({ task }) => {
        task.meta.measurement = { deliverable, report: await runMeasurement(m, config) };
      });
    }
  });
}

/**
 * Runs a check on the student's own files, then, while it fails, with the grader's stand-ins for
 * the earlier deliverables' files that showed a bug (`warranted`): it passes if any variant
 * passes, and the message says which one did. Each variant's context is added to `contexts` as it
 * starts, where the caller counts its crash states while it runs.
 */
async function gradeCheck(check: CheckDefinition, config: GradeConfig, target: PreparedTarget, warranted: (standIns: string[]) => Promise<true | false | { notGraded: string }>, contexts: CheckContext[]): Promise<{ verdict: Verdict; crashStates: number; replayed: boolean; limitHit: boolean }> {
  if (target.problem) return { verdict: new CheckContext(config, check.id, null).failed(target.problem, undefined, { wholeFile: true, ...(target.problemRestore ? { restore: target.problemRestore } : {}), ...(target.problemOutcome ? { outcome: target.problemOutcome } : {}) }), crashStates: 0, replayed: false, limitHit: false };
  const { checkMs, callMs } = config.rubric.limits;
  // The deadline counts the processor time of the check's processes (and the wall time while one it
  // waits on is blocked), not the time they waited for a processor behind other work; past the
  // wall-time cap, the machine never gave it enough.
  const clock = ProcessorClock.start();
  const wallCapMs = checkWallCapMs(config.rubric.limits);
  const late = (ctx: CheckContext, why: "deadline" | "machine"): Verdict => {
    // Whether a call had met its own limit before the check ran out of time: then the calls were not merely slow.
    const callMetLimit = ctx.limitHit;
    ctx.limitHit = true;
    const wall = formatMinutes(clock.wallMs());
    if (why === "machine") {
      return { status: "error", cause: { outcome: "the machine was too busy to finish it" }, message: `the machine was too busy to finish this check: in ${wall} it had ${formatSeconds(clock.usedMs())} of the ${formatSeconds(checkMs)} a check may take. Grade again on a machine with processors to spare.` };
    }
    return ctx.failed(
      `The check did not finish within ${formatSeconds(checkMs)}, the most one check may take. ` +
        (callMetLimit
          ? `A call into your code did not return within its limit of ${formatSeconds(callMs)}, which costs that time at each try: is there a loop that never ends?`
          : `No call into your code met its own limit of ${formatSeconds(callMs)}, yet together they took longer: are they slow (waiting, or retrying in a loop), or many (a state written a few bytes at a time)?`),
      undefined,
      { outcome: callMetLimit ? "the check ran out of time: a call met its own limit at each try" : "the check ran out of time: no call met its own limit" },
    );
  };
  const verdict = await (async (): Promise<Verdict> => {
    let first: Verdict | undefined;
    // Variants that passed with a stand-in for a file whose own deliverable is not graded in full here: not counted.
    const uncounted: { label: string; owner: string }[] = [];
    // A replayed case is one of the student's own files: a printed replay path comes from the
    // first variant (a check that passed with stand-ins prints none).
    let variants = config.replayCheck === check.id ? target.variants.slice(0, 1) : target.variants;
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[i]!;
      const tried = i > 0 ? await warranted(variant.standIns) : true;
      if (tried === false) continue;
      const ctx = new CheckContext(config, check.id, variant, clock);
      contexts.push(ctx);
      // A variant with others after it gets half the time left, so the variant with every stand-in always has its turn.
      const last = i === variants.length - 1;
      const until = clock.usedMs() + (last ? 1 : 0.5) * (checkMs - clock.usedMs());
      const outcome = await withinDeadline(runOne(check, ctx), { clock, usedMs: until, wallMs: wallCapMs }, (why) => late(ctx, why));
      if (ctx.limitHit) await ctx.close();
      // A limit met (a hang, a death) costs its time in every variant it is tried in: after one,
      // only the last variant still to be tried (the one with the most stand-ins) is, of those warranted.
      if (ctx.limitHit && i < variants.length - 2) {
        const rest = variants.slice(i + 1);
        let next: Variant | undefined;
        for (let k = rest.length - 1; k >= 0 && !next; k--) if ((await warranted(rest[k]!.standIns)) !== false) next = rest[k];
        variants = [...variants.slice(0, i + 1), ...(next ? [next] : [])];
      }
      if (outcome.status === "error") return outcome;
      if (outcome.status === "passed" && typeof tried === "object") uncounted.push({ label: variant.label, owner: tried.notGraded });
      else if (outcome.status === "passed") {
        if (!variant.label) return outcome;
        const own = first?.message ?? target.unusable ?? "";
        return { status: "passed", message: `Passed ${variant.label}. With your own files:\n${own}` };
      }
      first ??= outcome;
    }
    return withUncounted(withUntried(first!, target), uncounted, check.id);
  })();
  clock.stop();
  await Promise.all(contexts.map((c) => c.close()));
  return { verdict, crashStates: contexts.reduce((n, c) => n + c.crashStates, 0), replayed: contexts.some((c) => c.replayed), limitHit: contexts.some((c) => c.limitHit) };
}

/**
 * A failure that passed with a stand-in for a file whose own deliverable is not graded in full
 * here says so: the whole grade counts that pass only if that file loses a point there.
 */
function withUncounted(verdict: Verdict, uncounted: { label: string; owner: string }[], checkId: string): Verdict {
  if (verdict.status !== "failed" || uncounted.length === 0) return verdict;
  const owners = [...new Set(uncounted.map((n) => n.owner))];
  const note = `It passes ${uncounted.map((n) => n.label).join(", and ")}, which counts only if that file loses a point of ${owners.join(" or ")} in the same grade, not graded in full here (--only). Grade with --only ${[...owners, checkId].join(",")} to know.`;
  return { ...verdict, message: [verdict.message, note].filter(Boolean).join("\n") };
}

/**
 * A failure that the stand-ins for the earlier files could have shown to be theirs, had the
 * student's file compiled with them, says so: the bug may live in an earlier file, charged here because
 * the deliverable's file uses what only the student's earlier file has.
 */
function withUntried(verdict: Verdict, target: PreparedTarget): Verdict {
  if (verdict.status !== "failed" || !target.untried) return verdict;
  const notes = target.untried.map((u) => `It could not be tried ${u.label}, which would show whether the bug is there instead: ${u.problem}. Import from earlier files only what the handout asks them to export.`);
  return { ...verdict, message: [verdict.message, ...notes].filter(Boolean).join("\n") };
}

/** "3.5 min", or seconds under a minute. */
function formatMinutes(ms: number): string {
  return ms < 60_000 ? formatSeconds(ms) : `${+(ms / 60_000).toFixed(1)} min`;
}

/** Runs one check in one variant; a sandbox that died or hung is the target's failure. */
async function runOne(check: CheckDefinition, ctx: CheckContext): Promise<Verdict> {
  try {
    const verdict = await recordingTold(ctx.told, () => check.run(ctx));
    // A path given to the check's properties that none of them walked (its part names none) leads to no case.
    if (ctx.replayed && !ctx.replayWalked) throw new ReplayDoesNotFit(ctx.checkId, ctx.config.replayPath!, ctx.replayCommand());
    return verdict;
  } catch (error) {
    // Told outside the check's own record (its run has ended): the outcome goes with it here.
    if (error instanceof SandboxFailure) return ctx.failed(sandboxFinding(error));
    if (error instanceof ReplayDoesNotFit) return { status: "error", message: error.message, cause: { outcome: "the replay path leads to no case of it" } };
    const first = String((error as Error)?.message ?? error).split("\n")[0]!;
    return { status: "error", message: `the grader could not run this check: ${(error as Error)?.stack ?? error}`, cause: { outcome: `the grader could not run it: ${first.replace(/\d+/g, "#")}`, graderError: first } };
  }
}
