// Sentences of the report that a student read as false or unclear, each held to what it must say:
// a check that only waits on another has no command to replay; a partial grade's selection is
// shown as it can be typed; a picture's legend names every mark the picture drew; a session's
// wrong status line says how many steps it ran.
import pc from "picocolors";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import type { Cause, CheckMeta } from "../contract/verdict.js";
import { buildReport, type Report } from "../report/report.js";
import { runsLines } from "../report/picture-lines-runs.js";
import type { RunsPicture } from "../contract/picture-runs.js";
import { partialLine } from "../report/words.js";
import { loadRubric } from "../rubric.js";
import { DEFAULT_TASK } from "../rubric-task.js";
import { gradedTask } from "../checks/phase2/ledger.js";
import { checkSession, stepsWords, type Session } from "../checks/phase3/sessions.js";
import { show } from "../sandbox/runtime/actor.js";
import { notMeasured } from "../checks/stretch-git/comparison.js";
import { namedFile } from "../grading/calls.js";
import type { CallResult } from "../sandbox/messages/scenario.js";
import { renderScoreboard } from "../report/terminal.js";

const RUBRIC = loadRubric();

/** A verdict of `id` (a phase1 check). */
function meta(id: string, status: CheckMeta["status"], message?: string, replay?: string, cause?: Cause): CheckMeta {
  return { id, deliverable: "phase1", status, ...(message ? { message } : {}), ...(replay ? { replay } : {}), ...(cause ? { cause } : {}), crashStates: 1, durationMs: 1, span: [0, 1] } as CheckMeta;
}

function phase1(metas: CheckMeta[]): Report {
  return buildReport({ rubric: RUBRIC, target: "starter", seed: 1, gradedWith: { node: "v20.0.0" }, metas, selected: (id) => id.startsWith("phase1"), durationMs: 1, only: ["phase1"] });
}

describe("a check that waits on another", () => {
  const THREW = "loadCheckpoint threw Error: reading checkpoints is not written yet; expected the state just written null";
  const THREW_CAUSE: Cause = { errors: [{ name: "Error", message: "reading checkpoints is not written yet" }] };
  const replay = (id: string) => `npm run grade -- --only ${id} --seed 1 --replay 3:0:1:0:2:1:3:2`;

  test("has no replay when its own failure is the one it waits on (nothing to replay until that passes)", () => {
    const report = phase1([meta("phase1.round-trip", "failed", THREW, replay("phase1.round-trip"), THREW_CAUSE), meta("phase1.crash-safety", "failed", `On restart, ${THREW}`, replay("phase1.crash-safety"), THREW_CAUSE)]);
    const checks = report.deliverables[0]!.checks;
    expect(checks.find((c) => c.id === "phase1.round-trip")!.replay).toBe(replay("phase1.round-trip"));
    const blocked = checks.find((c) => c.id === "phase1.crash-safety")!;
    expect(blocked.status).toBe("blocked");
    expect(blocked.message).toBe("Scored only once phase1.round-trip passes; fix that first.");
    expect(blocked.replay).toBeUndefined();
  });

  test("keeps its replay when it also fails on its own, the story that replay shows", () => {
    const report = phase1([meta("phase1.round-trip", "failed", THREW, replay("phase1.round-trip"), THREW_CAUSE), meta("phase1.crash-safety", "failed", "On restart, loadCheckpoint returned {}; expected the old state", replay("phase1.crash-safety"))]);
    const blocked = report.deliverables[0]!.checks.find((c) => c.id === "phase1.crash-safety")!;
    expect(blocked.message).toContain("It also fails on its own:");
    expect(blocked.alsoFails).toBe(true);
    expect(blocked.replay).toBe(replay("phase1.crash-safety"));
  });
});

describe("a partial grade's line", () => {
  test("shows the selection as it can be pasted: --only with commas", () => {
    const report = { ...phase1([meta("phase1.round-trip", "passed")]), partial: { only: ["phase1", "phase2.boundary-crash"], maxScore: 100, maxBonus: 50 } };
    expect(partialLine(report)).toMatch(/^Partial grade \(--only phase1,phase2\.boundary-crash\): /);
  });
});

describe("a runs picture's legend", () => {
  const plain = pc.createColors(false);
  /** Run 1 killed at the boundary after step 2; run 2 ran step 3 on a wrong state, then 4 twice. */
  const picture: RunsPicture = {
    kind: "runs", unit: "run", steps: 5,
    runs: [
      { cells: [{ step: 1, time: 1 }, { step: 2, time: 1 }], killed: { step: 2, at: "after", words: "at the boundary after step 2" } },
      { cells: [{ step: 3, time: 1, wrongState: true }, { step: 4, time: 1 }, { step: 4, time: 2 }, { step: 5, time: 1 }], printed: { line: '{"status":"done","nextStep":6}' } },
    ],
    wrong: { step: 3, says: "step 3 ran on a wrong state" },
  };

  test("names every mark drawn (✗! among them), and no mark not drawn", () => {
    const lines = runsLines(picture, { width: 80, indent: 6, c: plain });
    const legend = lines.slice(lines.findIndex((l) => l.includes("█ ran"))).join("  ");
    for (const words of ["█ ran", "×2 ran again", "✂ killed", "✗! ran on a wrong state", "✗ wrong", "→ printed"]) expect(legend).toContain(words);
    expect(lines.join("\n")).toContain("✗!");
    expect(legend).not.toContain("✗2");
  });

  test("a picture with only steps that ran has '█ ran' alone", () => {
    const ran: RunsPicture = { kind: "runs", unit: "run", steps: 2, runs: [{ cells: [{ step: 1, time: 1 }, { step: 2, time: 1 }] }] };
    expect(runsLines(ran, { width: 80, indent: 6, c: plain }).at(-1)!.trim()).toBe("█ ran");
  });

  test("wraps onto a second line rather than be cut at a narrow width", () => {
    const lines = runsLines(picture, { width: 40, indent: 6, c: plain });
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    const legend = lines.slice(lines.findIndex((l) => l.trim().startsWith("█ ran"))).join("  ");
    expect(legend).toContain("→ printed");
    expect(legend).not.toContain("…");
  });
});

describe("a session that printed the wrong status", () => {
  const task = gradedTask(DEFAULT_TASK);
  /** A session that exited 0 having run `steps` and printed `line`. */
  const session = (steps: number[], line: string) =>
    ({ timedOut: false, exitCode: 0, signal: null, stdout: `${line}\n`, stderr: "", stdoutBytes: line.length + 1, effects: steps.map((step) => ({ phase: "done", step, pid: 1 })), show: (t: string) => t, command: "session --checkpoint task-checkpoint.json", limits: { outputKiB: 64 } }) as unknown as Session;

  test("says how many steps it ran (its side effects) and how many were to be done, never as if it ran them", () => {
    expect(checkSession(task, session([], '{"status":"paused","nextStep":1}'), task.steps)).toBe('`session --checkpoint task-checkpoint.json` ran no step and printed {"status":"paused","nextStep":1}; expected {"status":"done","nextStep":11}, with all 10 steps done');
    expect(checkSession(task, session([5, 6], '{"status":"paused","nextStep":7}'), 4)).toBe('`session --checkpoint task-checkpoint.json` ran steps 5 to 6 and printed {"status":"paused","nextStep":7}; expected {"status":"paused","nextStep":5}, with 4 of the task\'s 10 steps done');
  });

  test("names the steps it ran: none, one, a range, or each in order", () => {
    expect([[], [3], [1, 2, 3], [1, 2, 2, 3]].map(stepsWords)).toEqual(["no step", "step 3", "steps 1 to 3", "steps 1, 2, 2 and 3"]);
  });
});

describe("a concurrency story's calls", () => {
  test("name the checkpoint's folder as the student knows it, not by the grader's folder name", () => {
    expect(show("@/work")).toBe("the checkpoint's folder");
    expect(show("@/work/")).toBe("the checkpoint's folder");
    expect(show("@/work/checkpoint.json")).toBe("checkpoint.json");
    expect(show("@/work/workspace")).toBe("workspace");
  });
});

describe("the stretch-git comparison's note", () => {
  test("names a file that was not measured once: words recorded as naming it are not prefixed with it (whatever the words), and every note ends with one full stop", () => {
    expect(namedFile("runTask", { status: "missing", detail: "is missing from work/mine/" } as CallResult)).toBe("runner.ts");
    expect(namedFile("runTask", { status: "threw", error: { name: "Error", message: "runner.ts is broken", notImplemented: false } } as CallResult)).toBeUndefined();
    expect(notMeasured("runner.ts", { said: "it is missing", namesFile: true })).toBe("it is missing.");
    expect(notMeasured("runner.ts", { said: "starter/runner.ts does not compile: runner.ts:3:1: Unexpected \"}\"", namesFile: true })).toBe("starter/runner.ts does not compile: runner.ts:3:1: Unexpected \"}\".");
    expect(notMeasured("runner.ts", { said: "runner.ts is missing from work/mine/", namesFile: true })).toBe("runner.ts is missing from work/mine/.");
    expect(notMeasured("runner.ts", { said: "runTask is not implemented yet", namesFile: false })).toBe("runner.ts: runTask is not implemented yet.");
    expect(notMeasured("git-checkpoint.ts", { said: "The process running your code was killed.", namesFile: false })).toBe("git-checkpoint.ts: The process running your code was killed.");
  });
});

describe("a deliverable whose every check waits on the same failed check", () => {
  const WAIT = "Scored only once phase1.crash-safety passes; fix that first.";
  const blocked = (id: string) => ({ id, title: `title of ${id}`, status: "blocked" as const, points: 0, maxPoints: 5, message: WAIT, crashStates: 0, waitsOn: ["phase1.crash-safety"] });
  const report = (checks: Report["deliverables"][number]["checks"]): Report => ({
    schemaVersion: 6, target: "starter", seed: 1, score: 0, maxScore: 0, bonus: 0, maxBonus: 15,
    deliverables: [{ id: "power-loss", title: "Beyond the handout: durable across a power cut", kind: "bonus", status: "graded", points: 0, maxPoints: 15, checks, crashStates: 0, durationMs: 0 }],
    stats: { crashStates: 0, durationMs: 1000 },
  });

  test("is one line on the scoreboard at 80 columns, not a row per check each saying the same", () => {
    const lines = renderScoreboard(report([blocked("power-loss.never-torn"), blocked("power-loss.durable"), blocked("power-loss.cut-while-recovering")]), { color: false, seconds: 1, width: 80 }).split("\n");
    expect(lines.slice(3, 5)).toEqual(["  – Its 3 checks are scored only once phase1.crash-safety passes; fix that", "    first."]);
    expect(lines[5]).toBe("");
    expect(lines.join("\n")).not.toContain("title of");
  });

  test("is told from the checks they wait on, not read back from their messages: reworded messages give the same line", () => {
    const reworded = (id: string) => ({ ...blocked(id), message: "Waits for phase1.crash-safety." });
    const lines = renderScoreboard(report([reworded("power-loss.never-torn"), reworded("power-loss.durable")]), { color: false, seconds: 1, width: 80 }).split("\n");
    expect(lines.slice(3, 5)).toEqual(["  – Its 2 checks are scored only once phase1.crash-safety passes; fix that", "    first."]);
  });

  test("keeps a row per check when they wait on different checks", () => {
    const text = renderScoreboard(report([blocked("power-loss.never-torn"), { ...blocked("power-loss.durable"), waitsOn: ["phase1.stale-temp"] }]), { color: false, seconds: 1, width: 80 });
    expect(text).toContain("title of power-loss.never-torn");
    expect(text).not.toContain("Its 2 checks");
  });

  test("keeps a row per check when one has a story of its own", () => {
    const own = { ...blocked("power-loss.durable"), message: `${WAIT}\nIt also fails on its own:\nsomething else`, alsoFails: true };
    const text = renderScoreboard(report([blocked("power-loss.never-torn"), own]), { color: false, seconds: 1, width: 80 });
    expect(text).toContain("title of power-loss.never-torn");
    expect(text).not.toContain("Its 2 checks");
  });
});
