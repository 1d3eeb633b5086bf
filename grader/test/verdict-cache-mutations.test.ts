// The verdict cache cannot be stale: after a grade of the reference, every file of the target that
// grade read or ran is changed, one at a time, without changing what the code does; exactly the
// cached deliverables that depend on that file miss, and every other one is still taken. What
// depends on what is stated here, from the manifest (grader/rubric.json: each deliverable's file
// and the earlier deliverables it builds on) and from what each check runs, not read back from
// the cache: a file the cache forgot would leave a deliverable taken that should miss.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { VerdictCache } from "../cli/verdict-cache.js";
import type { Report } from "../report/report.js";
import { loadRubric } from "../rubric.js";
import { cacheEnv, composeTarget, grade, sameGrade } from "./support/grade.js";

/** The measurement a full grade makes (unscored), kept in an entry of its own beside its deliverable's. */
const COMPARISON = "stretch-git.comparison";
/** Every entry a full grade leaves: one per deliverable (its checks' verdicts), one per measurement. */
const ALL = [...loadRubric().deliverables.filter((d) => d.enabled).map((d) => d.id), COMPARISON].sort();

/**
 * Each file of the reference a full grade reads, and the entries that depend on it.
 * checkpoint.ts: Phase 1, power-loss, concurrency and disk-faults grade it; runner.ts, diff.ts and
 * session.ts (through runner.ts) import it; the stretch-git comparison runs runner.ts, which does;
 * stretch-git's checks run git-checkpoint.ts, which does not.
 * runner.ts: Phase 2 grades it, Phase 3's session.ts imports it, the stretch-git comparison runs it;
 * stretch-git's checks do not (git-checkpoint.ts imports only its types, which compile to
 * nothing), so their verdicts stay. The compiler's settings files, absent here, are read for every
 * file it compiles: written, they could change any build.
 */
const DEPENDS: Record<string, string[]> = {
  "checkpoint.ts": ALL.filter((entry) => entry !== "stretch-git"),
  "runner.ts": ["phase2", "phase3", COMPARISON],
  "session.ts": ["phase3"],
  "git-checkpoint.ts": ["stretch-git", COMPARISON],
  "diff.ts": ["stretch-diff"],
  "tsconfig.json": ALL,
  "jsconfig.json": ALL,
  "package.json": ALL,
};

/** A change that leaves what the code does as it was: a comment in a source file, settings that set nothing. */
function noOp(file: string, target: string): () => void {
  const full = path.join(target, file);
  const before = fs.existsSync(full) ? fs.readFileSync(full) : null;
  if (before) fs.appendFileSync(full, "\n// edited, nothing else changed\n");
  else fs.writeFileSync(full, "{}\n");
  return () => (before ? fs.writeFileSync(full, before) : fs.rmSync(full));
}

let target: { path: string; cleanup: () => Promise<void> };
let home: { path: string; cleanup: () => Promise<void> };
let cold: Report;
let env: NodeJS.ProcessEnv;
/** The entries the cold grade left (a later grade may add its own). */
let stored: { key: string; deliverable: string; name: string; files: string[] }[];
beforeAll(async () => {
  target = await composeTarget();
  home = await dir({ unsafeCleanup: true });
  env = cacheEnv(home.path);
  const run = await grade(target.path, ["--cache"], undefined, env);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  cold = run.report!;
  stored = entries();
});
afterAll(async () => {
  await target?.cleanup();
  await home?.cleanup();
});

/** Each entry of the cache: its key, deliverable, name (its deliverable's, or its measurement's), and the target files it recorded. */
function entries(): { key: string; deliverable: string; name: string; files: string[] }[] {
  const folder = path.join(home.path, "cache");
  return fs.readdirSync(folder).filter((n) => n.endsWith(".json")).map((n) => {
    const e = JSON.parse(fs.readFileSync(path.join(folder, n), "utf8")) as { key: string; deliverable: string; inputs: Record<string, string>; verdicts: unknown[]; measurements: { report: { id: string } }[] };
    const files = Object.keys(e.inputs).filter((k) => k.startsWith("file:") && !path.isAbsolute(k.slice(5))).map((k) => k.slice(5));
    const name = e.verdicts.length === 0 && e.measurements.length === 1 ? e.measurements[0]!.report.id : e.deliverable;
    return { key: e.key, deliverable: e.deliverable, name, files };
  });
}

/** The entries the cache would not give now (the lookup's own test of each entry). */
function missing(): string[] {
  const cache = VerdictCache.open(path.join(home.path, "cache"), path.join(home.path, "checkpoint-lab", "cache-secret"))!;
  return stored.filter((e) => !cache.get(e.key, e.deliverable, target.path)).map((e) => e.name).sort();
}

describe("a grade of the reference through the cache", () => {
  test("leaves one entry per deliverable and one for the measurement; the files it read of the target are the five source files and the compiler's three settings files", () => {
    expect(stored.map((e) => e.name).sort()).toEqual(ALL);
    expect([...new Set(stored.flatMap((e) => e.files))].sort()).toEqual(Object.keys(DEPENDS).sort());
  });

  test.each(Object.entries(DEPENDS))("%s changed: exactly the deliverables that depend on it miss", (file, expected) => {
    const restore = noOp(file, target.path);
    try {
      expect(missing()).toEqual([...expected].sort());
    } finally {
      restore();
    }
    expect(missing()).toEqual([]);
  });

  test("a file an import could find first makes every deliverable that imports from the folder miss; a file no import could find, none", () => {
    for (const [name, expected] of [["helpers.ts", ALL], ["notes.md", []]] as const) {
      fs.writeFileSync(path.join(target.path, name), "// new\n");
      try {
        expect(missing(), name).toEqual(expected);
      } finally {
        fs.rmSync(path.join(target.path, name));
      }
    }
  });

  test("a second grade takes every deliverable from it, with the same report", async () => {
    expect(missing()).toEqual([]);
    const warm = (await grade(target.path, ["--cache"], undefined, env)).report!;
    expect(warm.deliverables.filter((d) => !d.cached).map((d) => d.id)).toEqual([]);
    expect(sameGrade(warm)).toEqual(sameGrade(cold));
  });
});
