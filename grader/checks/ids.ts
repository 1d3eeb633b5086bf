// The ids of every deliverable and check the grader's code defines (grader/checks/index.ts), as
// plain data: what a grade checks the manifest against at load, whatever --only selects, without
// loading every check's code first (that costs the command line 0.7 s of its start).
// grader/test/manifest.test.ts fails while it differs from DELIVERABLES.
import type { GraderDefinitions } from "../rubric.js";

export const DEFINED_IDS: GraderDefinitions = [
  { id: "phase1", checks: [{ id: "phase1.round-trip" }, { id: "phase1.absent" }, { id: "phase1.crash-safety" }, { id: "phase1.stale-temp" }, { id: "phase1.crash-schedules" }, { id: "phase1.killed-process" }] },
  { id: "phase2", checks: [{ id: "phase2.complete-run" }, { id: "phase2.finished" }, { id: "phase2.max-steps" }, { id: "phase2.boundary-crash" }, { id: "phase2.crash-anywhere" }, { id: "phase2.crash-schedules" }, { id: "phase2.killed-at-step-6" }] },
  { id: "phase3", checks: [{ id: "phase3.three-sessions" }, { id: "phase3.random-splits" }, { id: "phase3.after-completion" }, { id: "phase3.killed-session" }] },
  { id: "stretch-git", checks: [{ id: "stretch-git.commits" }, { id: "stretch-git.crash-recovery" }, { id: "stretch-git.killed-in-commit" }, { id: "stretch-git.crash-schedules" }] },
  { id: "stretch-diff", checks: [{ id: "stretch-diff.first-step" }, { id: "stretch-diff.paths" }, { id: "stretch-diff.two-prompts" }] },
  { id: "power-loss", checks: [{ id: "power-loss.never-torn" }, { id: "power-loss.durable" }, { id: "power-loss.cut-while-recovering" }] },
  { id: "concurrency", checks: [{ id: "concurrency.two-writers" }, { id: "concurrency.three-writers" }] },
  { id: "disk-faults", checks: [{ id: "disk-faults.short-writes" }, { id: "disk-faults.disk-full" }, { id: "disk-faults.failed-fsync" }] },
];
