// A file not started is known from one call of each of its functions (checks/not-started-probe.ts):
// only when every one of them throws the starter's error for itself. A file written over an
// earlier one that is not started, a written file that still holds the starter's words, or a file
// half written, is graded check by check; one check asked for by name always runs.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import type { Report } from "../report/report.js";
import { composeTarget, grade } from "./support/grade.js";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The starter's line that throws for `fn` in `file`, as it stands in starter/. */
function starterThrow(file: string, fn: string): string {
  const line = fs.readFileSync(path.join(REPO_ROOT, "starter", file), "utf8").split("\n").find((l) => l.includes(`not implemented yet: ${fn} (`));
  if (!line) throw new Error(`starter/${file} has no starter error for ${fn}`);
  return line.trim();
}

/** A copy of the reference with `files` from starter/ and the starter's error lines of `mentions` left in comments of the reference's own files. */
async function target(files: string[], mentions: Record<string, string> = {}): Promise<string> {
  const t = await composeTarget();
  cleanups.push(t.cleanup);
  for (const f of files) fs.copyFileSync(path.join(REPO_ROOT, "starter", f), path.join(t.path, f));
  for (const [file, fn] of Object.entries(mentions)) fs.appendFileSync(path.join(t.path, file), `\n// Done. It was: ${starterThrow(file, fn)}\n`);
  return t.path;
}

const checksOf = (report: Report | null, id: string) => report!.deliverables.find((d) => d.id === id)!.checks;

describe.concurrent("a file is taken as not started only from its own functions' starter errors", () => {
  test("runner.ts and session.ts written over a checkpoint.ts not started, each still holding the starter's words in a comment, are graded in full and earn every point with the stand-ins; checkpoint.ts's checks fail unrun", async () => {
    const dir = await target(["checkpoint.ts"], { "runner.ts": "runTask", "session.ts": "session" });
    const run = await grade(dir, ["--only", "phase1,phase2,phase3"]);
    expect(run.stderr).toBe("");
    for (const id of ["phase2", "phase3"]) {
      const d = run.report!.deliverables.find((x) => x.id === id)!;
      expect(d.notStarted, id).toBeUndefined();
      expect(d.checks.map((c) => `${c.id} ${c.status}`)).toEqual(d.checks.map((c) => `${c.id} passed`));
      expect(d.crashStates).toBeGreaterThan(0);
    }
    const phase1 = run.report!.deliverables.find((d) => d.id === "phase1")!;
    expect(phase1.notStarted?.all).toBe(true);
    for (const c of phase1.checks.filter((c) => c.status === "failed")) expect(c.message).toMatch(/^Not run: checkpoint\.ts is not started: called once each, atomicCheckpoint and loadCheckpoint each threw the starter's "not implemented yet"\./);
  });

  test("a checkpoint.ts whose loadCheckpoint is written and atomicCheckpoint still throws is graded check by check: phase1.absent passes", async () => {
    const dir = await target([]);
    const file = path.join(dir, "checkpoint.ts");
    // The reference's atomicCheckpoint, made to throw the starter's error before it does anything.
    const source = fs.readFileSync(file, "utf8").replace(/(export function atomicCheckpoint\([^)]*\)[^{]*\{)/, `$1\n  ${starterThrow("checkpoint.ts", "atomicCheckpoint")}`);
    expect(source).toContain("not implemented yet: atomicCheckpoint");
    fs.writeFileSync(file, `${source}\n// ${starterThrow("checkpoint.ts", "loadCheckpoint")}\n`);
    const run = await grade(dir, ["--only", "phase1"]);
    const checks = checksOf(run.report, "phase1");
    expect(checks.find((c) => c.id === "phase1.absent")!.status).toBe("passed");
    const roundTrip = checks.find((c) => c.id === "phase1.round-trip")!;
    expect(roundTrip.status).toBe("failed");
    expect(roundTrip.message).not.toMatch(/^Not run/);
    expect(roundTrip.message).toMatch(/atomicCheckpoint\(path, null\) is not implemented yet/);
  });

  test("one check asked for by name runs even when its file is not started: the starter's phase1.round-trip tells its own story", async () => {
    const run = await grade(null, ["--only", "phase1.round-trip"]);
    const [roundTrip] = checksOf(run.report, "phase1");
    expect(roundTrip!.status).toBe("failed");
    expect(roundTrip!.message).toMatch(/^Wrote null, then \{\}, then \[\], loading after each write\.\natomicCheckpoint\(path, null\) is not implemented yet/);
  });
});
