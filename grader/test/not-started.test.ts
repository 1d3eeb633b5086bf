// A deliverable not started is told in one line: found from the report's checks alone, and only
// when every check failed, or waits on one that failed, because the starter's functions still throw.
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { TargetError } from "../contract/verdict.js";
import { notImplementedBy, notImplementedIn, notStartedDeliverables, notStartedLine, starterFunctions } from "../report/not-started.js";
import type { CheckReport, DeliverableReport, Report } from "../report/report.js";
import { firstStep, renderScoreboard } from "../report/terminal.js";
import { loadRubric } from "../rubric.js";

const rubric = loadRubric();
/** The starter's error for `fn`, as the target's code threw it. */
const starterError = (fn: string, file: string): TargetError => ({ name: "Error", message: `not implemented yet: ${fn} (starter/${file})` });
/** A failure whose story tells `errors` (its words are not what is read). */
const failure = (...errors: TargetError[]): Pick<CheckReport, "status" | "message" | "cause"> => ({ status: "failed", message: "a story", ...(errors.length > 0 ? { cause: { errors } } : {}) });

/** A graded deliverable of the rubric with each check's status and message from `checks` (passed when not named). */
function deliverable(id: string, checks: Record<string, Pick<CheckReport, "status" | "message" | "cause">> = {}): DeliverableReport {
  const d = rubric.deliverables.find((r) => r.id === id)!;
  const reports = d.checks.map((c) => ({ id: c.id, title: c.title, points: 0, maxPoints: c.points, crashStates: 0, status: "passed" as const, ...checks[c.id] }));
  return { id, title: d.title, kind: d.kind, status: "graded", points: 0, maxPoints: 0, checks: reports };
}

/** Every check of `id` failed telling `errors`. */
function allFailed(id: string, ...errors: TargetError[]): DeliverableReport {
  const d = rubric.deliverables.find((r) => r.id === id)!;
  return deliverable(id, Object.fromEntries(d.checks.map((c) => [c.id, failure(...errors)])));
}

describe("a deliverable not started", () => {
  test("the starter's functions are read from its files, and from the errors a failure's cause holds, as name (file)", () => {
    expect(starterFunctions("checkpoint.ts")).toEqual(["atomicCheckpoint (checkpoint.ts)", "loadCheckpoint (checkpoint.ts)"]);
    expect(starterFunctions("no-such-file.ts")).toEqual([]);
    expect(notImplementedIn('throw new Error("not implemented yet: runTask (starter/runner.ts)");\nthrow new Error("not implemented yet: runTask (starter/runner.ts)");')).toEqual(["runTask (runner.ts)"]);
    expect(notImplementedIn("runTask threw Error: something else")).toEqual([]);
    expect(notImplementedBy({ errors: [starterError("runTask", "runner.ts"), { name: "Error", message: "something else" }, starterError("runTask", "runner.ts")] })).toEqual(["runTask (runner.ts)"]);
    // A story that tells it is not what is read: the cause is.
    expect(notImplementedBy(undefined)).toEqual([]);
  });

  test("every check failing on the starter's functions, every one of its file's: 'not started'", () => {
    const phase1 = allFailed("phase1", starterError("atomicCheckpoint", "checkpoint.ts"), starterError("loadCheckpoint", "checkpoint.ts"));
    const found = notStartedDeliverables([phase1], rubric);
    expect(found.get("phase1")).toEqual({ functions: ["atomicCheckpoint (checkpoint.ts)", "loadCheckpoint (checkpoint.ts)"], all: true });
    expect(notStartedLine(found.get("phase1")!)).toBe("not started: atomicCheckpoint and loadCheckpoint are not implemented yet (checkpoint.ts)");
  });

  test("a check of its own that waits on one failing for that reason (its own failure, the same, left out) counts too", () => {
    const phase1 = allFailed("phase1", starterError("atomicCheckpoint", "checkpoint.ts"), starterError("loadCheckpoint", "checkpoint.ts"));
    const crashSafety = phase1.checks.find((c) => c.id === "phase1.crash-safety")!;
    Object.assign(crashSafety, { status: "blocked", message: "Scored only once phase1.round-trip passes; fix that first.", cause: undefined });
    expect(notStartedDeliverables([phase1], rubric).get("phase1")?.all).toBe(true);
    // Waiting on a check of its own that fails for another reason is no sign of it.
    Object.assign(phase1.checks.find((c) => c.id === "phase1.round-trip")!, { message: "loadCheckpoint returned [] after writing {}", cause: undefined });
    expect(notStartedDeliverables([phase1], rubric).has("phase1")).toBe(false);
  });

  test("only some of its file's functions missing: it names them and says every check needs them, not 'not started'", () => {
    const found = notStartedDeliverables([allFailed("phase1", starterError("loadCheckpoint", "checkpoint.ts"))], rubric).get("phase1")!;
    expect(found.all).toBe(false);
    expect(notStartedLine(found)).toBe("loadCheckpoint (checkpoint.ts) is not implemented yet, and every check here needs it");
  });

  test("one check passed, or one failed for another reason: not one line, every check tells its own story", () => {
    const runTask = starterError("runTask", "runner.ts");
    const onePassed = deliverable("phase2", { "phase2.complete-run": failure(runTask), "phase2.finished": failure(runTask) });
    const otherCause = allFailed("phase2", runTask);
    otherCause.checks[1] = { ...otherCause.checks[1]!, ...failure({ name: "Error", message: "disk full" }) };
    expect([...notStartedDeliverables([onePassed, otherCause], rubric).keys()]).toEqual([]);
  });

  test("a bonus tier whose checks all wait on a not-started deliverable's check is not started, with that deliverable's functions", () => {
    const phase1 = allFailed("phase1", starterError("atomicCheckpoint", "checkpoint.ts"), starterError("loadCheckpoint", "checkpoint.ts"));
    const waiting = allFailed("power-loss");
    waiting.checks.forEach((c) => Object.assign(c, { status: "blocked", message: "Scored only once phase1.crash-safety passes; fix that first." }));
    const found = notStartedDeliverables([phase1, waiting], rubric);
    expect(found.get("power-loss")).toEqual(found.get("phase1"));
    // Waiting on a deliverable that is started (its crash safety failed on a real bug) is not "not started".
    const started = allFailed("phase1");
    expect(notStartedDeliverables([started, waiting], rubric).has("power-loss")).toBe(false);
  });

  test("a starter with no starter/ copy of the file: its functions are named, never 'not started'", () => {
    const found = notStartedDeliverables([allFailed("phase2", starterError("runTask", "runner.ts"))], rubric, path.join(REPO_ROOT, "no-starter-here"));
    expect(found.get("phase2")).toEqual({ functions: ["runTask (runner.ts)"], all: false });
  });

  test("the untouched diff.ts: its checks name firstDivergence and recordHistory only, and loadHistory, which none reached, still throws in the target's file: 'not started', naming all three", () => {
    const diff = allFailed("stretch-diff", starterError("firstDivergence", "diff.ts"), starterError("recordHistory", "diff.ts"));
    const graded = notStartedDeliverables([diff], rubric, undefined, { targetDir: path.join(REPO_ROOT, "starter") }).get("stretch-diff")!;
    expect(notStartedLine(graded)).toBe("not started: recordHistory, loadHistory and firstDivergence are not implemented yet (diff.ts)");
    // Without the target's file to read, the functions no check reached are not known to be missing.
    expect(notStartedDeliverables([diff], rubric).get("stretch-diff")!.all).toBe(false);
  });
});

describe("the first step, at the end of the scoreboard", () => {
  const phase1 = allFailed("phase1", starterError("atomicCheckpoint", "checkpoint.ts"), starterError("loadCheckpoint", "checkpoint.ts"));
  const report = (deliverables: DeliverableReport[], partial = false): Report => ({
    schemaVersion: 6, target: "starter", seed: 1, score: 0, maxScore: 35, bonus: 0, maxBonus: 0, deliverables, stats: { crashStates: 0, durationMs: 0 },
    ...(partial ? { partial: { only: ["phase1"], maxScore: 100, maxBonus: 50 } } : {}),
  });

  test("a full grade with nothing started ends with the manifest's first deliverable and its file; any other grade does not", () => {
    phase1.notStarted = { functions: ["atomicCheckpoint (checkpoint.ts)", "loadCheckpoint (checkpoint.ts)"], all: true };
    const untouched = renderScoreboard(report([phase1]), { color: false, seconds: 1, width: 80, rubric });
    expect(untouched.split("\n").at(-1)).toBe("Start with Phase 1: starter/checkpoint.ts (HANDOUT.md, Phase 1)");
    // Taken from the manifest: another first deliverable is named with its own file.
    const reordered = { deliverables: [rubric.deliverables[1]!, rubric.deliverables[0]!] };
    expect(firstStep(report([phase1]), reordered)).toBe("Start with Phase 2: starter/runner.ts (HANDOUT.md, Phase 2)");
    expect(firstStep(report([phase1], true), rubric)).toBeNull();
    expect(firstStep(report([phase1, deliverable("phase2")]), rubric)).toBeNull();
    expect(renderScoreboard(report([deliverable("phase2")]), { color: false, seconds: 1, width: 80, rubric })).not.toContain("Start with");
  });
});
