// The order a grade runs its deliverables in (cli/schedule.ts): the quickest core deliverable that
// waits on no other alone first, then core, then the bonus ones that wait on a check of another,
// then the rest; and vitest starts a run's files in that order.
import { describe, expect, test } from "vitest";
import type { TestSpecification } from "vitest/node";
import { inGivenOrder, runOrder } from "../cli/schedule.js";
import { loadRubric, type RubricDeliverable } from "../rubric.js";

const rubric = loadRubric();
const graded = rubric.deliverables.filter((d) => d.enabled && d.checks.length > 0);
const fileOf = (d: RubricDeliverable) => `.grade/${d.id}.grade.mjs`;
const idsOf = (runs: string[][]) => runs.map((run) => run.map((file) => file.slice(".grade/".length, -".grade.mjs".length)));

describe("runOrder", () => {
  test("the lab's manifest: Phase 3 (fewest checks) alone, then the Phases, then the bonus ones that wait on Phase 1, then the rest", () => {
    expect(idsOf(runOrder(graded, graded.map(fileOf)))).toEqual([["phase3"], ["phase1", "phase2", "power-loss", "concurrency", "disk-faults", "stretch-git", "stretch-diff"]]);
  });

  test("the core deliverable with the fewest checks goes first, whichever it is", () => {
    const phase1 = graded.find((d) => d.id === "phase1")!;
    const shortPhase1 = { ...phase1, checks: phase1.checks.filter((c) => !c.requires?.length).slice(0, 1) };
    const deliverables = graded.map((d) => (d.id === "phase1" ? shortPhase1 : d));
    expect(idsOf(runOrder(deliverables, deliverables.map(fileOf)))[0]).toEqual(["phase1"]);
  });

  test("a core deliverable that waits on another deliverable's check never runs alone first", () => {
    const phase3 = graded.find((d) => d.id === "phase3")!;
    const waiting = { ...phase3, checks: phase3.checks.map((c, i) => (i === 0 ? { ...c, requires: ["phase1.crash-safety"] } : c)) };
    const deliverables = graded.map((d) => (d.id === "phase3" ? waiting : d));
    const runs = idsOf(runOrder(deliverables, deliverables.map(fileOf)));
    // Phase 1 has the fewest checks left (6, against Phase 2's 7); Phase 3 runs after it, among the core ones.
    expect(runs[0]).toEqual(["phase1"]);
    expect(runs[1]!.slice(0, 2)).toEqual(["phase2", "phase3"]);
  });

  test("one deliverable is one run; bonus ones alone are one run in the manifest's order of their rank", () => {
    const only = (ids: string[]) => graded.filter((d) => ids.includes(d.id));
    expect(idsOf(runOrder(only(["phase2"]), only(["phase2"]).map(fileOf)))).toEqual([["phase2"]]);
    const bonus = only(["stretch-git", "concurrency", "stretch-diff"]);
    expect(idsOf(runOrder(bonus, bonus.map(fileOf)))).toEqual([["concurrency", "stretch-git", "stretch-diff"]]);
  });
});

describe("inGivenOrder", () => {
  test("vitest's sequencer starts the files in the order given, whatever order vitest found them in", async () => {
    const files = [".grade/phase1.grade.mjs", ".grade/phase2.grade.mjs", ".grade/power-loss.grade.mjs"];
    const spec = (file: string) => ({ moduleId: `/somewhere/${file}` }) as TestSpecification;
    const Sequencer = inGivenOrder(files);
    const sorted = await new Sequencer().sort([spec(files[2]!), spec(files[0]!), spec(files[1]!)]);
    expect(sorted.map((s) => s.moduleId)).toEqual(files.map((f) => `/somewhere/${f}`));
  });
});
