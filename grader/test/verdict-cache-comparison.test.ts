// The stretch-git comparison runs runner.ts, which git-checkpoint.ts imports only types from: its
// cached table is taken only while runner.ts (and what it imports) is as it was, and the
// deliverable's checks, which never run runner.ts, keep their cached verdicts meanwhile. A grade
// of the starter's runner.ts beside a finished git-checkpoint.ts, then runner.ts written: the
// table is measured again, not "runTask is not implemented yet" from the cache, and the checks are
// not run again; checkpoint.ts broken: the table says runner.ts could not be compiled, not the
// timings of before.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import type { Report } from "../report/report.js";
import { cacheEnv, composeTarget, grade } from "./support/grade.js";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The stretch-git deliverable of a report, and its comparison's table. */
function stretchGit(report: Report | null) {
  const d = report!.deliverables.find((x) => x.id === "stretch-git")!;
  return { cached: d.cached === true, remeasured: d.remeasured === true, checks: d.checks, table: d.measurements!.find((m) => m.id === "stretch-git.comparison")! };
}

test("the stretch-git comparison is measured again once runner.ts is written after a grade of the starter's, and once checkpoint.ts stops compiling, while the deliverable's checks keep their cached verdicts, durations included", async () => {
  const target = await composeTarget();
  const home = await dir({ unsafeCleanup: true });
  cleanups.push(target.cleanup, home.cleanup);
  fs.copyFileSync(path.join(REPO_ROOT, "starter/runner.ts"), path.join(target.path, "runner.ts"));
  const env = cacheEnv(home.path);
  const args = ["--cache", "--only", "stretch-git"];

  const stub = stretchGit((await grade(target.path, args, undefined, env)).report);
  expect(stub.cached).toBe(false);
  expect(stub.table.note).toMatch(/Not measured: \S*runner\.ts\b.*not implemented yet: runTask/);
  // Unchanged: from the cache, the same table.
  const again = stretchGit((await grade(target.path, args, undefined, env)).report);
  expect(again.cached).toBe(true);
  expect(again.remeasured).toBe(false);
  expect(again.table.note).toBe(stub.table.note);
  expect(again.checks).toEqual(stub.checks);

  fs.copyFileSync(path.join(SOLUTION_DIR, "runner.ts"), path.join(target.path, "runner.ts"));
  const written = stretchGit((await grade(target.path, args, undefined, env)).report);
  // The checks' verdicts from the cache: run again, each would have a duration of its own.
  expect(written.cached).toBe(true);
  expect(written.remeasured).toBe(true);
  expect(written.checks).toEqual(stub.checks);
  expect(written.table.note).not.toMatch(/Not measured/);
  expect(written.table.columns).toEqual(["runner.ts", "git-checkpoint.ts"]);
  expect(written.table.rows.find((r) => r.label.startsWith("time per checkpoint"))!.cells.every((c) => / ms$/.test(c))).toBe(true);

  fs.appendFileSync(path.join(target.path, "checkpoint.ts"), "\nexport const broken = (;\n");
  const broken = stretchGit((await grade(target.path, args, undefined, env)).report);
  expect(broken.remeasured).toBe(true);
  expect(broken.checks).toEqual(stub.checks);
  // runner.ts imports the broken checkpoint.ts: its column is not measured, and the note says why.
  expect(broken.table.note).toMatch(/Not measured: \S*(runner|checkpoint)\.ts\b.*does not compile/);
  expect(broken.table.rows.find((r) => r.label.startsWith("time per checkpoint"))?.cells[0] ?? "–").toBe("–");
});
