// A check is scored only when every check it requires is scored, all the way down: a crash check
// built on a crash-safety check that passed on its own but waits on a failed round-trip waits
// too, and names round-trip, the check to fix first. The report decides it from the verdicts'
// statuses alone; the live scoreboard waits for the same checks before it shows a row.
import { describe, expect, test } from "vitest";
import type { CheckMeta } from "../contract/verdict.js";
import { buildReport, type Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";

const RUBRIC = loadRubric();
const ALL = RUBRIC.deliverables.flatMap((d) => d.checks.map((c) => c.id));

/** A grade where every check passed on its own except `failed`. */
function grade(failed: string[]): Report {
  const metas: CheckMeta[] = ALL.map((id) => ({ id, deliverable: id.split(".")[0]!, status: failed.includes(id) ? "failed" : "passed", message: failed.includes(id) ? `${id} went wrong.` : undefined, crashStates: 1, durationMs: 1, span: [0, 1] }));
  return buildReport({ rubric: RUBRIC, target: "starter", seed: 1, gradedWith: { node: "v24.0.0" }, metas, selected: () => true, durationMs: 1 });
}

const check = (report: Report, id: string) => report.deliverables.flatMap((d) => d.checks).find((c) => c.id === id)!;
const deliverable = (report: Report, id: string) => report.deliverables.find((d) => d.id === id)!;

describe("requirements are met all the way down", () => {
  test("with only phase1.round-trip failed, every check built on phase1.crash-safety is blocked on round-trip and scores nothing", () => {
    const report = grade(["phase1.round-trip"]);
    expect(check(report, "phase1.crash-safety")).toMatchObject({ status: "blocked", waitsOn: ["phase1.round-trip"], points: 0 });
    for (const id of ["phase1.crash-schedules", "power-loss.never-torn", "power-loss.durable", "power-loss.cut-while-recovering", "concurrency.two-writers", "disk-faults.disk-full"]) {
      expect(check(report, id), id).toMatchObject({ status: "blocked", waitsOn: ["phase1.round-trip"], points: 0, message: "Scored only once phase1.round-trip passes; fix that first." });
    }
    for (const id of ["power-loss", "concurrency", "disk-faults"]) expect(deliverable(report, id).points, id).toBe(0);
    // What does not build on round-trip keeps its points.
    expect(deliverable(report, "phase1").points).toBe(4);
    expect(deliverable(report, "phase2").points).toBe(deliverable(report, "phase2").maxPoints);
  });

  test("a requirement that failed on its own is the one named, as before: never-torn waits on crash-safety when round-trip passed", () => {
    const report = grade(["phase1.crash-safety"]);
    expect(check(report, "power-loss.never-torn")).toMatchObject({ status: "blocked", waitsOn: ["phase1.crash-safety"] });
    expect(check(report, "phase1.crash-schedules")).toMatchObject({ status: "blocked", waitsOn: ["phase1.crash-safety"] });
    expect(check(report, "phase1.stale-temp")).toMatchObject({ status: "passed" });
  });

  test("a check waiting on two chains names each check to fix once: cut-while-recovering, with round-trip and durable failed", () => {
    const report = grade(["phase1.round-trip", "power-loss.durable"]);
    expect(check(report, "power-loss.cut-while-recovering")).toMatchObject({ status: "blocked", waitsOn: ["phase1.round-trip", "power-loss.durable"] });
    expect(check(report, "power-loss.durable")).toMatchObject({ status: "blocked", waitsOn: ["phase1.round-trip"], alsoFails: true });
  });

  test("with every check passed, every check is scored: the chain blocks nothing by itself", () => {
    const report = grade([]);
    expect(report.score).toBe(report.maxScore);
    expect(report.bonus).toBe(report.maxBonus);
  });
});
