// The verdict cache of a student's own grades: an entry is taken only when it is this machine's
// user's, whole, under the key of what this grade asks, and while every input it recorded is as
// it was (verdict-cache-mutations.test.ts changes each one); a grade with CI set (unless the
// tests' cache folder is named), --no-cache or a replay never uses it; and a grade that takes a
// deliverable from it says so and gives the same verdicts.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { execa } from "execa";
import { afterEach, describe, expect, test } from "vitest";
import { createHmac } from "node:crypto";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { loadRubric } from "../rubric.js";
import type { GradeConfig } from "../grading/config.js";
import type { CheckMeta } from "../contract/verdict.js";
import { CACHE_DIR_VARIABLE, MAX_ENTRIES, VerdictCache, cacheOff, verdictKeys } from "../cli/verdict-cache.js";
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
/** An entry whose one input is a file of the target folder `here` names: absent at first. */
const VALUE = { verdicts: [meta("phase1.round-trip", "phase1")], measurements: [], inputs: { "file:checkpoint.ts": "absent" } };

describe("cache entries", () => {
  test("an entry put is got back under its key and deliverable, and under no other, while its inputs are as they were", async () => {
    const root = await folder();
    const here = await folder();
    const cache = VerdictCache.open(path.join(root, "cache"), path.join(root, "secret"))!;
    cache.put("k1", "phase1", VALUE);
    expect(cache.get("k1", "phase1", here)).toEqual(VALUE);
    expect(cache.get("k2", "phase1", here)).toBeUndefined();
    expect(cache.get("k1", "phase2", here)).toBeUndefined();
    fs.writeFileSync(path.join(here, "checkpoint.ts"), "");
    expect(cache.get("k1", "phase1", here)).toBeUndefined();
    // Two entries under one key, for two versions of the file: each is taken with its own version.
    const written = { ...VALUE, inputs: { "file:checkpoint.ts": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" } };
    cache.put("k1", "phase1", written);
    expect(cache.get("k1", "phase1", here)).toEqual(written);
    fs.rmSync(path.join(here, "checkpoint.ts"));
    expect(cache.get("k1", "phase1", here)).toEqual(VALUE);
  });

  test("a corrupt entry, one signed by another user's secret, one whose inputs were rewritten, one of another format or moved to another key is ignored", async () => {
    const root = await folder();
    const cache = VerdictCache.open(path.join(root, "cache"), path.join(root, "secret"))!;
    const other = VerdictCache.open(path.join(root, "cache"), path.join(root, "other-secret"))!;
    const here = await folder();
    other.put("foreign", "phase1", VALUE);
    expect(cache.get("foreign", "phase1", here)).toBeUndefined();
    expect(other.get("foreign", "phase1", here)).toEqual(VALUE);
    cache.put("k", "phase1", VALUE);
    const [name] = fs.readdirSync(path.join(root, "cache")).filter((n) => n.startsWith("k-"));
    const file = (key: string) => path.join(root, "cache", name!.replace(/^k-/, `${key}-`));
    fs.copyFileSync(file("k"), file("moved"));
    expect(cache.get("moved", "phase1", here)).toBeUndefined();
    const entry = JSON.parse(fs.readFileSync(file("k"), "utf8"));
    fs.writeFileSync(file("k"), JSON.stringify({ ...entry, verdicts: [{ ...entry.verdicts[0], status: "failed" }] }));
    expect(cache.get("k", "phase1", here)).toBeUndefined();
    // Inputs rewritten to match another version of the file: the signature no longer holds.
    fs.writeFileSync(file("k"), JSON.stringify({ ...entry, inputs: { "file:checkpoint.ts": "0".repeat(64) } }));
    expect(cache.get("k", "phase1", here)).toBeUndefined();
    fs.writeFileSync(file("k"), JSON.stringify({ ...entry, format: 0 }));
    expect(cache.get("k", "phase1", here)).toBeUndefined();
    fs.writeFileSync(file("k"), "{ not json");
    expect(cache.get("k", "phase1", here)).toBeUndefined();
  });

  test(`at most ${MAX_ENTRIES} entries are kept: the oldest go first`, async () => {
    const root = await folder();
    const here = await folder();
    const cache = VerdictCache.open(path.join(root, "cache"), path.join(root, "secret"))!;
    for (let i = 0; i < MAX_ENTRIES + 3; i++) {
      cache.put(`k${i}`, "phase1", VALUE);
      const [name] = fs.readdirSync(path.join(root, "cache")).filter((n) => n.startsWith(`k${i}-`));
      fs.utimesSync(path.join(root, "cache", name!), 1000 + i, 1000 + i);
    }
    cache.put("last", "phase1", VALUE);
    expect(fs.readdirSync(path.join(root, "cache")).filter((n) => n.endsWith(".json"))).toHaveLength(MAX_ENTRIES);
    expect(cache.get("k0", "phase1", here)).toBeUndefined();
    expect(cache.get("last", "phase1", here)).toEqual(VALUE);
  });

  test(`CI, --no-cache and a replay turn the cache off, each saying why; ${CACHE_DIR_VARIABLE} turns it on with CI set, never with --no-cache or a replay`, () => {
    expect(cacheOff({ noCache: false, replay: false, env: {} })).toBeNull();
    expect(cacheOff({ noCache: false, replay: false, env: { CI: "true" } })).toMatch(/CI is set/);
    expect(cacheOff({ noCache: true, replay: false, env: {} })).toBe("--no-cache");
    expect(cacheOff({ noCache: false, replay: true, env: {} })).toMatch(/replay/);
    const named = { CI: "true", [CACHE_DIR_VARIABLE]: "/somewhere" };
    expect(cacheOff({ noCache: false, replay: false, env: named })).toBeNull();
    expect(cacheOff({ noCache: true, replay: false, env: named })).toBe("--no-cache");
    expect(cacheOff({ noCache: false, replay: true, env: named })).toMatch(/replay/);
  });

  test("grades that open one cache at the same moment, before it has a secret, sign with one secret: each one's entry is found by a grade after them (three times)", async () => {
    // A race, run three times: a secret written in place (at 3ed11cc) lost one to five of the six entries in 6 of 8 single rounds.
    for (let round = 0; round < 3; round++) await openTogether(await folder(), await folder());
  });
});

/** Six processes open the cache in `root` at once and put an entry each, found with inputs in `here`; each entry is found after them. */
async function openTogether(root: string, here: string): Promise<void> {
  const [cacheDir, secret] = [path.join(root, "cache"), path.join(root, "checkpoint-lab", "cache-secret")];
  // Each process says it is ready, then spins until told to go, so that they open the cache together.
  const opener = path.join(root, "opener.mts");
  fs.writeFileSync(opener, [
    `import fs from "node:fs";`,
    `import { VerdictCache } from ${JSON.stringify(path.join(REPO_ROOT, "grader/cli/verdict-cache.ts"))};`,
    `const [cacheDir, secret, go, me, value] = process.argv.slice(2);`,
    `fs.writeFileSync(go + "." + me, "");`,
    `while (!fs.existsSync(go));`,
    `VerdictCache.open(cacheDir, secret).put("k" + me, "phase1", JSON.parse(value));`,
  ].join("\n"));
  const go = path.join(root, "go");
  const names = ["1", "2", "3", "4", "5", "6"];
  const runs = names.map((me) => execa(process.execPath, ["--import", "tsx", opener, cacheDir, secret, go, me, JSON.stringify(VALUE)], { cwd: REPO_ROOT }));
  while (!names.every((me) => fs.existsSync(`${go}.${me}`))) await new Promise((r) => setTimeout(r, 20));
  fs.writeFileSync(go, "");
  await Promise.all(runs);
  const cache = VerdictCache.open(cacheDir, secret)!;
  expect(names.filter((me) => cache.get(`k${me}`, "phase1", here) === undefined)).toEqual([]);
  expect(fs.readdirSync(path.dirname(secret))).toEqual(["cache-secret"]);
}

describe("keys", () => {
  async function keys(edit?: (target: string) => void, only: string[] = [], seed = 1): Promise<Map<string, string>> {
    const target = path.join(await folder(), "t");
    fs.cpSync(SOLUTION_DIR, target, { recursive: true });
    edit?.(target);
    const config: GradeConfig = { targetDir: target, targetArg: "t", work: await folder(), hostFile: "", seed, only, rubric: loadRubric() };
    return verdictKeys(config, config.rubric.deliverables.map((d) => d.id));
  }

  test("a key is what the grade asks, not the target's code: the same in another folder and after an edit; the seed and the checks selected change it", async () => {
    const base = await keys();
    expect(await keys()).toEqual(base);
    expect(await keys((t) => fs.appendFileSync(path.join(t, "runner.ts"), "\nexport const edited = 1;\n"))).toEqual(base);
    expect(await keys(undefined, [], 2)).not.toEqual(base);
    // Fewer of Phase 2's checks: its key changes, and the keys of those that may read its verdicts (they build on it), only.
    const all = await keys(undefined, ["phase2", "stretch-git"]);
    const fewer = await keys(undefined, ["phase2.complete-run", "stretch-git"]);
    expect([...all.keys()].filter((id) => all.get(id) !== fewer.get(id))).toEqual(["phase2", "phase3", "stretch-diff"]);
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

