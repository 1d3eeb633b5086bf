// The verdict cache of a student's own grades: an entry is taken only when it is this machine's
// user's, whole, and under the key of exactly these inputs; a key changes with the files a
// deliverable compiles and with the deliverables it builds on, and with nothing else of the
// target; a grade with CI set, --no-cache or a replay never uses it; and a grade that takes a
// deliverable from it says so and gives the same verdicts.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterEach, describe, expect, test } from "vitest";
import { createHmac } from "node:crypto";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { loadRubric } from "../rubric.js";
import type { GradeConfig } from "../grading/config.js";
import type { CheckMeta } from "../grading/verdict.js";
import { MAX_ENTRIES, VerdictCache, cacheOff, verdictKeys } from "../cli/verdict-cache.js";
import { gradedWith } from "../report/graded-with.js";
import { comparable, grade, prose } from "./support/grade.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function folder(): Promise<string> {
  const d = await dir({ unsafeCleanup: true });
  cleanups.push(d.cleanup);
  return d.path;
}

const meta = (id: string, deliverable: string): CheckMeta => ({ id, deliverable, status: "passed", crashStates: 3, durationMs: 5, span: [1, 6] });
const VALUE = { verdicts: [meta("phase1.round-trip", "phase1")], measurements: [] };

describe("cache entries", () => {
  test("an entry put is got back under its key and deliverable, and under no other", async () => {
    const root = await folder();
    const cache = VerdictCache.open(path.join(root, "cache"), path.join(root, "secret"))!;
    cache.put("k1", "phase1", VALUE);
    expect(cache.get("k1", "phase1")).toEqual(VALUE);
    expect(cache.get("k2", "phase1")).toBeUndefined();
    expect(cache.get("k1", "phase2")).toBeUndefined();
  });

  test("a corrupt entry, one signed by another user's secret, one of another format or moved to another key is ignored", async () => {
    const root = await folder();
    const cache = VerdictCache.open(path.join(root, "cache"), path.join(root, "secret"))!;
    const other = VerdictCache.open(path.join(root, "cache"), path.join(root, "other-secret"))!;
    const file = (key: string) => path.join(root, "cache", `${key}.json`);
    other.put("foreign", "phase1", VALUE);
    expect(cache.get("foreign", "phase1")).toBeUndefined();
    expect(other.get("foreign", "phase1")).toEqual(VALUE);
    cache.put("k", "phase1", VALUE);
    fs.copyFileSync(file("k"), file("moved"));
    expect(cache.get("moved", "phase1")).toBeUndefined();
    const entry = JSON.parse(fs.readFileSync(file("k"), "utf8"));
    fs.writeFileSync(file("k"), JSON.stringify({ ...entry, verdicts: [{ ...entry.verdicts[0], status: "failed" }] }));
    expect(cache.get("k", "phase1")).toBeUndefined();
    fs.writeFileSync(file("k"), JSON.stringify({ ...entry, format: 0 }));
    expect(cache.get("k", "phase1")).toBeUndefined();
    fs.writeFileSync(file("k"), "{ not json");
    expect(cache.get("k", "phase1")).toBeUndefined();
  });

  test(`at most ${MAX_ENTRIES} entries are kept: the oldest go first`, async () => {
    const root = await folder();
    const cache = VerdictCache.open(path.join(root, "cache"), path.join(root, "secret"))!;
    for (let i = 0; i < MAX_ENTRIES + 3; i++) {
      cache.put(`k${i}`, "phase1", VALUE);
      fs.utimesSync(path.join(root, "cache", `k${i}.json`), 1000 + i, 1000 + i);
    }
    cache.put("last", "phase1", VALUE);
    expect(fs.readdirSync(path.join(root, "cache")).filter((n) => n.endsWith(".json"))).toHaveLength(MAX_ENTRIES);
    expect(cache.get("k0", "phase1")).toBeUndefined();
    expect(cache.get("last", "phase1")).toEqual(VALUE);
  });

  test("CI, --no-cache and a replay turn the cache off, each saying why", () => {
    expect(cacheOff({ noCache: false, replay: false, env: {} })).toBeNull();
    expect(cacheOff({ noCache: false, replay: false, env: { CI: "true" } })).toMatch(/CI is set/);
    expect(cacheOff({ noCache: true, replay: false, env: {} })).toBe("--no-cache");
    expect(cacheOff({ noCache: false, replay: true, env: {} })).toMatch(/replay/);
  });
});

describe("keys", () => {
  async function keys(edit?: (target: string) => void): Promise<Map<string, string>> {
    const target = path.join(await folder(), "t");
    fs.cpSync(SOLUTION_DIR, target, { recursive: true });
    edit?.(target);
    const config: GradeConfig = { targetDir: target, targetArg: "t", work: await folder(), hostFile: "", seed: 1, only: [], rubric: loadRubric() };
    return verdictKeys(config, config.rubric.deliverables.map((d) => d.id));
  }
  const touch = (file: string) => (target: string) => fs.appendFileSync(path.join(target, file), `\nif (process.env.LAB_EDITED) console.log("edited");\n`);

  test("the same target in another folder has the same keys; an edit changes the keys of the deliverables that compile the file, and of those built on them, only", async () => {
    const base = await keys();
    expect(await keys()).toEqual(base);
    const changed = (edited: Map<string, string>) => [...base.keys()].filter((id) => edited.get(id) !== base.get(id));
    expect(changed(await keys(touch("git-checkpoint.ts")))).toEqual(["stretch-git"]);
    // runner.ts is compiled by Phase 2 and by Phase 3's session.ts, which imports it.
    expect(changed(await keys(touch("runner.ts")))).toEqual(["phase2", "phase3"]);
    // The power-loss, concurrency and disk-fault checks build on phase1.crash-safety.
    expect(changed(await keys(touch("checkpoint.ts")))).toEqual(expect.arrayContaining(["phase1", "phase2", "phase3", "power-loss", "concurrency", "disk-faults"]));
    // A comment changes no code: the same key.
    expect(changed(await keys((t) => fs.appendFileSync(path.join(t, "runner.ts"), "\n// a note to myself\n")))).toEqual([]);
  });
});

describe("a grade with the cache", () => {
  test("the second grade of unchanged code takes the deliverable from the cache, says so, and gives the same verdicts; an edit, CI or --no-cache grade it again", async () => {
    const target = path.join(await folder(), "t");
    fs.cpSync(SOLUTION_DIR, target, { recursive: true });
    const env = { XDG_CACHE_HOME: await folder(), CI: "" };
    const args = ["--cache", "--only", "stretch-diff"];
    const first = await grade(target, args, undefined, env);
    const second = await grade(target, args, undefined, env);
    expect(first.report!.deliverables[0]!.cached).toBeUndefined();
    expect(second.report!.deliverables[0]!.cached).toBe(true);
    expect(prose(second.stdout)).toContain("from the cache: nothing it depends on changed since it was last graded here");
    expect(prose(second.stdout)).toContain("(1 of 1 deliverables from the cache)");
    const same = (r: typeof first) => comparable({ ...r.report!, deliverables: r.report!.deliverables.map((d) => ({ ...d, cached: undefined })) });
    expect(same(second)).toEqual(same(first));
    // What graded the report is this grade's, never replayed with the verdicts: the grading Node and the grader's commit now.
    for (const r of [first, second]) expect(r.report!.gradedWith).toMatchObject({ node: process.version, commit: gradedWith().commit });
    expect((await grade(target, args, undefined, { ...env, CI: "true" })).report!.deliverables[0]!.cached).toBeUndefined();
    expect((await grade(target, [...args, "--no-cache"], undefined, env)).report!.deliverables[0]!.cached).toBeUndefined();
    fs.appendFileSync(path.join(target, "diff.ts"), `\nif (process.env.LAB_EDITED) console.log("edited");\n`);
    expect((await grade(target, args, undefined, env)).report!.deliverables[0]!.cached).toBeUndefined();
  });

  test("a forged entry (valid for this machine, claiming every check passed) is taken by a student's own grade, and changes nothing in a grade with CI set or --no-cache", async () => {
    const target = path.join(await folder(), "t");
    fs.cpSync(SOLUTION_DIR, target, { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, "grader/fixtures/stretch-diff/off-by-one/diff.ts"), path.join(target, "diff.ts"));
    const home = await folder();
    const env = { XDG_CACHE_HOME: home, CI: "" };
    const args = ["--cache", "--only", "stretch-diff"];
    const honest = await grade(target, args, undefined, env);
    expect(honest.exitCode).toBe(1);
    // The forger knows this machine's secret: every entry of the grade is rewritten to say "passed", and signed.
    const secret = fs.readFileSync(path.join(home, "checkpoint-lab", "cache-secret"));
    const cacheDir = path.join(REPO_ROOT, ".grade", "cache");
    const entries = fs.readdirSync(cacheDir).filter((n) => n.endsWith(".json")).map((n) => path.join(cacheDir, n));
    let forged = 0;
    for (const file of entries) {
      const { mac: _mac, ...body } = JSON.parse(fs.readFileSync(file, "utf8"));
      if (createHmac("sha256", secret).update(JSON.stringify(body)).digest("hex") !== _mac) continue; // another grade's entry
      body.verdicts = body.verdicts.map((v: CheckMeta) => ({ ...v, status: "passed", message: undefined, replay: undefined }));
      fs.writeFileSync(file, JSON.stringify({ ...body, mac: createHmac("sha256", secret).update(JSON.stringify(body)).digest("hex") }));
      forged++;
    }
    expect(forged).toBeGreaterThan(0);
    const fooled = await grade(target, args, undefined, env);
    expect([fooled.exitCode, fooled.report!.deliverables[0]!.cached]).toEqual([0, true]);
    for (const counted of [await grade(target, args, undefined, { ...env, CI: "true" }), await grade(target, [...args, "--no-cache"], undefined, env)]) {
      expect(counted.exitCode).toBe(1);
      expect(counted.report!.deliverables[0]!.cached).toBeUndefined();
      expect(comparable(counted.report!)).toEqual(comparable(honest.report!));
    }
  });

  test("the platforms' scripts and the workflow grade with --no-cache", () => {
    for (const file of ["classroom50/autograder.py", "gradescope/run_autograder", ".github/workflows/classroom.yml", "grader/tools/batch/run-grade.ts"]) {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
      expect(text, file).toMatch(/"--no-cache"|grade -- --no-cache/);
    }
  });
});

