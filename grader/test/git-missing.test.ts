// A machine without git (a grading image, say) cannot grade the git-backed checkpoint: its checks
// fail with one plain reason, the comparison still measures runner.ts, and nothing else changes.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { expect, test } from "vitest";
import { grade } from "./support/grade.js";

test("without git on the PATH, stretch-git says so and the other deliverables are unaffected", async () => {
  const bin = await dir({ unsafeCleanup: true });
  try {
    // A PATH with node and nothing else.
    fs.symlinkSync(process.execPath, path.join(bin.path, "node"));
    const run = await grade("solution", ["--only", "stretch-git", "--only", "phase1.absent"], undefined, { PATH: bin.path });
    const report = run.report!;
    const git = report.deliverables.find((d) => d.id === "stretch-git")!;
    expect(git.points).toBe(0);
    expect(git.checks.find((c) => c.id === "stretch-git.commits")?.message).toMatch(/^git is not installed on this machine/);
    expect(report.deliverables.find((d) => d.id === "phase1")?.points).toBe(4);
    const comparison = git.measurements![0]!;
    expect(comparison.rows.find((r) => r.label.startsWith("recovered, killed in the state write"))?.cells).toEqual(["4 of 4", "–"]);
    expect(comparison.note).toContain("Not measured: git-checkpoint.ts: git is not installed");
    expect(run.exitCode).toBe(1); // a bonus check named with --only counts
  } finally {
    await bin.cleanup();
  }
});
