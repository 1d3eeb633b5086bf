// The order a grade starts its deliverables in (cli/schedule.ts): each after those it builds on or
// waits on a check of; otherwise core, then the bonus ones that wait on another's check, then the
// rest; and vitest starts the files in that order.
import { describe, expect, test } from "vitest";
import type { TestSpecification } from "vitest/node";
import { inGivenOrder, runOrder } from "../cli/schedule.js";
import { loadRubric, type RubricDeliverable } from "../rubric.js";

const rubric = loadRubric();
const graded = rubric.deliverables.filter((d) => d.enabled && d.checks.length > 0);
const fileOf = (d: RubricDeliverable) => `.grade/${d.id}.grade.mjs`;
const order = (deliverables: RubricDeliverable[], inRubric = rubric) => runOrder(inRubric, deliverables, deliverables.map(fileOf)).map((file) => file.slice(".grade/".length, -".grade.mjs".length));

describe("runOrder", () => {
  test("the lab's manifest: the Phases in order, then the bonus ones that wait on Phase 1's checks, then the rest", () => {
    expect(order(graded)).toEqual(["phase1", "phase2", "phase3", "power-loss", "concurrency", "disk-faults", "stretch-git", "stretch-diff"]);
  });

  test("a deliverable never starts before one it builds on, in whatever order they are given", () => {
    expect(order([...graded].reverse()).slice(0, 3)).toEqual(["phase1", "phase2", "phase3"]);
  });

  test("a bonus deliverable that builds on another starts after it, whatever their ranks", () => {
    const changed = { ...rubric, deliverables: rubric.deliverables.map((d) => (d.id === "concurrency" ? { ...d, buildsOn: ["stretch-git"] } : d)) };
    const ids = order(changed.deliverables.filter((d) => d.enabled && d.checks.length > 0), changed);
    expect(ids.indexOf("stretch-git")).toBeLessThan(ids.indexOf("concurrency"));
    expect(ids.indexOf("power-loss")).toBeLessThan(ids.indexOf("stretch-git"));
  });

  test("a deliverable it builds on that is not graded here holds nothing back", () => {
    const only = graded.filter((d) => ["phase3", "stretch-git"].includes(d.id));
    expect(order(only)).toEqual(["phase3", "stretch-git"]);
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
