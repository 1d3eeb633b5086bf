// The durations a grade reports come from a clock that only moves forward with real time: the
// system's clock stepped back or forward while checks run (a time sync, a virtual machine resumed
// from a pause) changes none of them. The grade's processes get a Date.now() stepped every half
// second (support/stepped-clock.cjs); what they report is held to the wall time the test measures.
import path from "node:path";
import { expect, test } from "vitest";
import { grade } from "./support/grade.js";

const STEPPED_CLOCK = path.join(import.meta.dirname, "support", "stepped-clock.cjs");

test.each([
  { direction: "back", stepMs: -1_000 },
  { direction: "forward", stepMs: 5_000 },
])("with the system's clock stepped $direction every half second, every duration in the report is at least 0 and at most the grade's wall time, and the scoreboard's says so", async ({ stepMs }) => {
  const began = performance.now();
  const run = await grade("solution", ["--only", "phase1"], undefined, { NODE_OPTIONS: `--require ${STEPPED_CLOCK}`, STEPPED_CLOCK_MS: String(stepMs) });
  const wallMs = performance.now() - began;
  expect(run.exitCode, run.stderr).toBe(0);
  const report = run.report!;
  const phase1 = report.deliverables.find((d) => d.id === "phase1")!;
  const durations = [report.stats.durationMs, phase1.durationMs!, ...phase1.checks.map((c) => c.durationMs!)];
  expect(durations.length).toBeGreaterThan(3);
  for (const ms of durations) {
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThanOrEqual(wallMs);
  }
  // A deliverable's time spans its checks': it is at least its longest one.
  expect(phase1.durationMs).toBeGreaterThanOrEqual(Math.max(...phase1.checks.map((c) => c.durationMs!)));
  // The phase's checks took a second or more of the grade: a stepped clock would have shown in them.
  expect(report.stats.durationMs).toBeGreaterThan(1_000);
  const seconds = /checked\s+in\s+(\d+(?:\.\d+)?)\s+s\b/.exec(run.stdout)?.[1];
  expect(Number(seconds) * 1000).toBeLessThanOrEqual(wallMs);
  expect(Number(seconds)).toBeGreaterThan(0);
});
