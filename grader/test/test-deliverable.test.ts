// `npm run test:deliverable`: which deliverables its command line names, and which fixtures it
// grades for each (support/grade.ts fixturesOf).
import { describe, expect, test } from "vitest";
import { loadRubric } from "../rubric.js";
import { namedDeliverables } from "../tools/test-deliverable.js";
import { buggyFixtures, fixturesOf } from "./support/grade.js";

const rubric = loadRubric();
const ids = rubric.deliverables.map((d) => d.id);
const fixtures = buggyFixtures();

describe("the command line", () => {
  test("names each deliverable once, in the order given", () => {
    expect(namedDeliverables(["phase2", "phase1", "phase2"], ids)).toEqual(["phase2", "phase1"]);
  });

  test("refuses a name the manifest has not, with the one it is closest to, else the list; an option; and no name", () => {
    expect(() => namedDeliverables(["phaes1"], ids)).toThrow('no deliverable "phaes1" in grader/rubric.json (did you mean phase1?)');
    expect(() => namedDeliverables(["phase"], ids)).toThrow(`no deliverable "phase" in grader/rubric.json: its deliverables are ${ids.join(", ")}`);
    expect(() => namedDeliverables(["--only", "phase1"], ids)).toThrow('unknown option "--only"');
    expect(() => namedDeliverables([], ids)).toThrow("name a deliverable");
  });
});

describe("the fixtures graded for a deliverable", () => {
  test.each(rubric.deliverables.filter((d) => d.enabled).map((d) => d.id))("%s: at least one that must lose one of its checks, every one of its own group, and no other group's that loses none of them unless it is correct and graded on it", (id) => {
    const chosen = fixturesOf(fixtures, rubric, id);
    expect(chosen.some((f) => f.fails.some((c) => c.startsWith(`${id}.`)))).toBe(true);
    for (const f of fixtures.filter((f) => f.name.startsWith(`${id}/`))) expect(chosen).toContain(f);
    for (const f of chosen.filter((f) => !f.name.startsWith(`${id}/`) && !f.fails.some((c) => c.startsWith(`${id}.`)))) {
      expect(f.name.startsWith("correct/") && (f.only.length === 0 || f.only.includes(id)), f.name).toBe(true);
    }
  });

  test("power-loss's leave out the Phase 1 fixtures that lose a check power-loss requires, and keep its own group's", () => {
    const names = fixturesOf(fixtures, rubric, "power-loss").map((f) => f.name);
    expect(names).toContain("power-loss/no-fsync");
    expect(names).toContain("power-loss/roll-forward-unsynced");
    expect(names).not.toContain("phase1/write-in-place");
    // It loses power-loss.cut-while-recovering, which requires phase1.crash-schedules, which it loses too.
    expect(names).not.toContain("phase1/append-log-drops-loaded-line");
  });

  test("phase1's include the correct checkpoint.ts fixtures and not a correct session.ts one", () => {
    const names = fixturesOf(fixtures, rubric, "phase1").map((f) => f.name);
    expect(names).toContain("correct/append-log");
    expect(names).toContain("phase1/rename-old-away");
    expect(names).not.toContain("correct/chatty-session");
  });
});
