// The verdict cache of a student's own grades: a deliverable whose inputs have not changed since
// a grade on this machine takes that grade's verdicts instead of running again (grades are
// deterministic, so a cached verdict is the same verdict). An entry is found by what the grade
// was asked (the grader's code its checks and sandbox run, its stand-ins, the lab, the rubric, the seed,
// the checks selected, who the code runs as, the Node version, and the same of the deliverables
// whose verdicts it reads), then taken only while every file its grade read of the target (every
// file compiled for its checks, the folders an import looked in, the compiler's settings:
// target/trace.ts), and of the deliverables whose verdicts it read, is as it was. What a
// deliverable measures unscored is kept apart, by what it read itself: an edit that only the
// measurement reads (stretch-git's comparison runs runner.ts) measures it again and keeps the
// checks' verdicts.
// An entry is signed with a secret of this machine's user: a corrupt, foreign or forged one is
// ignored. A grade that counts (CI, the platforms' scripts, grade-batch) never reads or writes it.
import { build } from "esbuild";
import { createHash, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isSelected, type GradeConfig } from "../grading/config.js";
import { writeWhole } from "../write-whole.js";
import type { CheckMeta } from "../contract/verdict.js";
import type { MeasurementMeta } from "../contract/measurement.js";
import { REPO_ROOT } from "../paths.js";
import { GRADER_BUILD } from "./grader-build.mjs";
import { deliverableEntries, deliverableEntry, isMadeEntry } from "./deliverable-entry.js";
import { deliverableModules, rubricDeliverable, type Rubric } from "../rubric.js";
import { buildName, standInsCompiled, stillTrue, tracesLeft, union, type Trace } from "../target/trace.js";

/** The shape of an entry; a new shape makes every older entry a miss. */
const FORMAT = 3;
/** The most entries kept: the oldest go first. */
export const MAX_ENTRIES = 64;
/**
 * The grader's files a verdict depends on besides the code its checks and its sandbox host are
 * compiled from (graderDigests): the stand-ins compiled into a target, the lab, the packages'
 * versions, and how a grade compiles its checks and keeps their verdicts.
 */
const GRADER_INPUTS = ["grader/stand-ins", "lab", "package-lock.json", "grader/cli/grade.ts", "grader/cli/compile-checks.ts", "grader/cli/grader-build.mjs", "grader/cli/verdict-cache.ts", "grader/cli/deliverable-entry.ts"];
/**
 * The variable that names a cache folder of its own: the grader's tests grade through a cache
 * there with CI set. --no-cache, which every grade that counts is run with, still turns it off.
 */
export const CACHE_DIR_VARIABLE = "CHECKPOINT_LAB_CACHE_DIR";

/**
 * What a deliverable's grade left: its checks' verdicts and what it measured. Stored, a
 * deliverable's entry holds its verdicts and names what it measured (`measuredApart`), and each
 * measurement has an entry of its own (measurementKey) holding it alone.
 */
export interface CachedVerdicts {
  verdicts: CheckMeta[];
  measurements: MeasurementMeta[];
  measuredApart?: string[];
}

interface Entry extends CachedVerdicts {
  format: number;
  key: string;
  deliverable: string;
  /** What its grade read of the target, and its upstream deliverables' grades read, each with its digest then. */
  inputs: Trace;
  mac: string;
}

/** Why the cache is not used for this grade, or null when it is. */
export function cacheOff(opts: { noCache: boolean; replay: boolean; env: NodeJS.ProcessEnv }): string | null {
  if (opts.noCache) return "--no-cache";
  if (opts.replay) return "a replay runs its case";
  if (opts.env.CI && !opts.env[CACHE_DIR_VARIABLE]) return "CI is set: a grade that counts never reads a cache";
  return null;
}

/** The cache's folder: the one CACHE_DIR_VARIABLE names, else .grade/cache in the repository. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return env[CACHE_DIR_VARIABLE] ? path.resolve(env[CACHE_DIR_VARIABLE]) : path.join(REPO_ROOT, ".grade", "cache");
}

/**
 * What a grade's lookup found: each selected deliverable's key, and the entries it holds (with
 * the measurements found); `remeasure`, the measurements of those that are not found and run
 * again. store() completes it once the grade ends.
 */
export interface CacheLookup {
  config: GradeConfig;
  keys: Map<string, string>;
  hits: Map<string, CachedVerdicts & { inputs: Trace }>;
  remeasure: { deliverable: string; measurement: string }[];
}

/** The key a measurement's own entry is stored under, from its deliverable's. */
function measurementKey(deliverableKey: string, measurement: string): string {
  return createHash("sha256").update(`${deliverableKey}\0${measurement}`).digest("hex");
}

/** The cache in `dir` (cacheFolder() by default), signed with this user's secret. */
export class VerdictCache {
  private constructor(
    private readonly dir: string,
    private readonly secret: Buffer,
  ) {}

  /** Where the files the grader's checks are compiled from are kept between grades (graderInputs). */
  get graderInputsFile(): string {
    return path.join(this.dir, "grader-inputs");
  }

  static open(dir = cacheFolder(), secretFile = defaultSecretFile()): VerdictCache | null {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return new VerdictCache(dir, readOrMakeSecret(secretFile));
    } catch {
      return null; // no cache where none can be kept: the grade runs in full
    }
  }

  /**
   * The verdicts stored under `key` for `deliverable` whose every input still has its digest in
   * `targetDir`, or undefined for a miss (none, or each changed, corrupt, foreign or of another shape).
   */
  get(key: string, deliverable: string, targetDir: string): (CachedVerdicts & { inputs: Trace }) | undefined {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.startsWith(`${key}-`) && n.endsWith(".json"));
    } catch {
      return undefined;
    }
    for (const name of names) {
      try {
        const entry = JSON.parse(fs.readFileSync(path.join(this.dir, name), "utf8")) as Entry;
        if (entry.format !== FORMAT || entry.key !== key || entry.deliverable !== deliverable) continue;
        if (entry.mac !== this.sign(entry)) continue;
        if (!Array.isArray(entry.verdicts) || entry.verdicts.some((v) => v.deliverable !== deliverable)) continue;
        if (!entry.inputs || typeof entry.inputs !== "object" || !stillTrue(targetDir, entry.inputs)) continue;
        const measuredApart = Array.isArray(entry.measuredApart) ? { measuredApart: entry.measuredApart } : {};
        return { verdicts: entry.verdicts, measurements: Array.isArray(entry.measurements) ? entry.measurements : [], ...measuredApart, inputs: entry.inputs };
      } catch {
        // A corrupt entry is a miss.
      }
    }
    return undefined;
  }

  /** Stores a deliverable's verdicts under `key` with the inputs they were read from, then drops the oldest entries beyond MAX_ENTRIES. */
  put(key: string, deliverable: string, value: CachedVerdicts & { inputs: Trace }): void {
    const entry = { format: FORMAT, key, deliverable, inputs: value.inputs, verdicts: value.verdicts, measurements: value.measurements, ...(value.measuredApart ? { measuredApart: value.measuredApart } : {}), mac: "" };
    entry.mac = this.sign(entry);
    try {
      // One entry per key and inputs: the same code graded again replaces its entry, other code of the same grade adds one.
      const file = path.join(this.dir, `${key}-${createHash("sha256").update(JSON.stringify(value.inputs)).digest("hex").slice(0, 16)}.json`);
      writeWhole(file, JSON.stringify(entry));
      const entries = fs.readdirSync(this.dir).filter((n) => n.endsWith(".json")).map((n) => ({ n, t: fs.statSync(path.join(this.dir, n)).mtimeMs }));
      for (const old of entries.sort((a, b) => b.t - a.t).slice(MAX_ENTRIES)) fs.rmSync(path.join(this.dir, old.n), { force: true });
    } catch {
      // A cache that cannot be written only costs the next grade its time.
    }
  }

  private sign(entry: Omit<Entry, "mac"> & { mac?: string }): string {
    const { mac: _mac, ...body } = entry;
    return createHmac("sha256", this.secret).update(JSON.stringify(body)).digest("hex");
  }
}

/**
 * The deliverables whose verdicts a deliverable's grade reads: those its checks' `requires` name
 * (a check built on one that did not pass is not run), and those whose files it runs the grader's
 * stand-in for (tried only when that deliverable showed a bug: grading/harness.ts). Without
 * `standIns` (the modules whose stand-ins its builds compiled), every one it builds on.
 */
function readsVerdictsOf(rubric: Rubric, id: string, standIns?: string[]): string[] {
  const deliverable = rubricDeliverable(rubric, id);
  const required = deliverable.checks.flatMap((c) => c.requires ?? []).map((r) => r.split(".")[0]!);
  const replaced = (deliverable.buildsOn ?? []).filter((d) => !standIns || standIns.includes(deliverableModules(rubric, d).main));
  return [...new Set([...required, ...replaced])].filter((d) => d !== id);
}

/**
 * The key each of `deliverables` is looked up under in this grade: what the grade is asked, not
 * what it reads (an entry's inputs verify that). A deliverable's key holds the keys of those
 * whose verdicts it reads, or that they are not graded here.
 */
export async function verdictKeys(config: GradeConfig, deliverables: string[], { memoFile }: { memoFile?: string } = {}): Promise<Map<string, string>> {
  const graders = await graderDigests(deliverables, memoFile);
  const keys = new Map<string, string>();
  const keyOf = (id: string, seen: string[]): string => {
    if (keys.has(id)) return keys.get(id)!;
    if (seen.includes(id)) return `a cycle: ${[...seen, id].join(" > ")}`;
    const deliverable = rubricDeliverable(config.rubric, id);
    const upstream = readsVerdictsOf(config.rubric, id).map((d) => (deliverables.includes(d) ? keyOf(d, [...seen, id]) : `not graded: ${d}`));
    const key = createHash("sha256")
      .update(JSON.stringify({
        format: FORMAT, grader: graders.get(id), rubric: config.rubric, seed: config.seed, node: process.version, upstream, target: config.targetArg, deliverable: id,
        selected: deliverable.checks.map((c) => c.id).filter((c) => isSelected(config, c)),
        // What it measures is selected with the whole deliverable, or by its own id.
        named: config.only.length === 0 ? "all" : config.only.filter((o) => o === id || (o.startsWith(`${id}.`) && !deliverable.checks.some((c) => c.id === o))),
        separateUser: config.identity?.separate ?? false,
      }))
      .digest("hex");
    keys.set(id, key);
    return key;
  };
  for (const id of deliverables) keyOf(id, []);
  return keys;
}

/**
 * A digest of the grader's code each deliverable's verdicts depend on: every file its checks
 * (deliverable-entry.ts's entry for each) and the sandbox host (grader/sandbox/runtime/main.ts) are compiled
 * from, as esbuild reads them, and GRADER_INPUTS; by path and content. The rest of the grader (the
 * reports, the command line's other files, its tests) changes no verdict.
 */
async function graderDigests(deliverables: string[], memoFile?: string): Promise<Map<string, string>> {
  const inputs = await graderInputs(["host", ...deliverables], memoFile);
  const inputsOf = (name: string) => inputs[name]!;
  const shared = createHash("sha256");
  const walk = (rel: string) => {
    const abs = path.join(REPO_ROOT, rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) if (name !== "node_modules" && !name.startsWith(".")) walk(path.join(rel, name));
    } else shared.update(`${rel}\0`).update(fs.readFileSync(abs)).update("\0");
  };
  // Most files are compiled into every deliverable's checks: each is read once a grade.
  const fileDigests = new Map<string, string>();
  const digestOf = (rel: string) => fileDigests.get(rel) ?? fileDigests.set(rel, createHash("sha256").update(fs.readFileSync(path.resolve(REPO_ROOT, rel))).digest("hex")).get(rel)!;
  for (const input of GRADER_INPUTS) walk(input);
  for (const input of inputsOf("host")) shared.update(`${input}\0${digestOf(input)}\0`);
  const common = shared.digest("hex");
  const digests = new Map<string, string>();
  for (const id of deliverables) {
    const hash = createHash("sha256").update(common);
    for (const input of inputsOf(id)) hash.update(`${input}\0${digestOf(input)}\0`);
    digests.set(id, hash.digest("hex"));
  }
  return digests;
}

/**
 * The files (relative to the repository, sorted) each of `names` is compiled from: a deliverable's
 * checks, or "host", the sandbox host. esbuild finds them (0.2 to 0.8 s); they are kept in
 * `memoFile` with each file's time and size, and found again only once one of those changed (a
 * new import changes the file that makes it). Their contents are read on every grade.
 */
async function graderInputs(names: string[], memoFile?: string): Promise<Record<string, string[]>> {
  type Memo = { inputs: Record<string, string[]>; stats: Record<string, string> };
  const stat = (rel: string) => {
    try {
      const st = fs.statSync(path.resolve(REPO_ROOT, rel));
      return `${st.mtimeMs}:${st.size}`;
    } catch {
      return "absent";
    }
  };
  try {
    const memo = JSON.parse(fs.readFileSync(memoFile!, "utf8")) as Memo;
    if (names.every((n) => Array.isArray(memo.inputs[n])) && Object.entries(memo.stats).every(([rel, st]) => stat(rel) === st)) return memo.inputs;
  } catch {
    // None kept, or not for these: found again.
  }
  const entry = (name: string) => (name === "host" ? path.join(REPO_ROOT, "grader/sandbox/runtime/main.ts") : deliverableEntry(name));
  const built = await build({ ...GRADER_BUILD, plugins: [deliverableEntries], entryPoints: Object.fromEntries(names.map((n) => [n, entry(n)])), outdir: path.join(REPO_ROOT, ".grade", "digest"), write: false, metafile: true, logLevel: "silent" });
  const inputs = Object.fromEntries(names.map((n) => [n, Object.keys(Object.entries(built.metafile.outputs).find(([out]) => path.basename(out, path.extname(out)) === n)?.[1].inputs ?? {}).filter((input) => !isMadeEntry(input)).sort()]));
  if (memoFile) {
    const stats = Object.fromEntries([...new Set(Object.values(inputs).flat())].map((rel) => [rel, stat(rel)]));
    try {
      writeWhole(memoFile, JSON.stringify({ inputs, stats } satisfies Memo), { mode: 0o600 });
    } catch {
      // Found again next time.
    }
  }
  return inputs;
}

function defaultSecretFile(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "checkpoint-lab", "cache-secret");
}

/**
 * This user's secret (made once, readable by this user only). A new one is written whole and put
 * in place only where none is: grades that start at the same moment never read a secret half
 * written, and all sign with the first one.
 */
function readOrMakeSecret(file: string): Buffer {
  const found = readSecret(file);
  if (found) return found;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Another grade's secret is kept; a file too short to be one (cut off by a full disk) is replaced.
  if (!writeWhole(file, randomBytes(32), { mode: 0o600, ifAbsent: true }) && !readSecret(file)) writeWhole(file, randomBytes(32), { mode: 0o600 });
  const secret = readSecret(file);
  if (!secret) throw new Error("no secret could be kept");
  return secret;
}

/** The secret in `file`, or null when there is none (or too short a one). */
function readSecret(file: string): Buffer | null {
  try {
    const secret = fs.readFileSync(file);
    return secret.length >= 32 ? secret : null;
  } catch {
    return null;
  }
}

/** Looks up each of `deliverables` in `cache`. */
export async function lookUp(cache: VerdictCache, config: GradeConfig, deliverables: string[]): Promise<CacheLookup> {
  const keys = await verdictKeys(config, deliverables, { memoFile: cache.graderInputsFile });
  const hits = new Map<string, CachedVerdicts & { inputs: Trace }>();
  const remeasure: CacheLookup["remeasure"] = [];
  for (const [id, key] of keys) {
    const hit = cache.get(key, id, config.targetDir);
    if (!hit) continue;
    const measured = (hit.measuredApart ?? []).map((m) => ({ m, found: cache.get(measurementKey(key, m), id, config.targetDir)?.measurements ?? [] }));
    hits.set(id, { ...hit, measurements: measured.flatMap((x) => x.found) });
    remeasure.push(...measured.filter((x) => x.found.length === 0).map((x) => ({ deliverable: id, measurement: x.m })));
  }
  return { config, keys, hits, remeasure };
}

/**
 * Stores the verdicts of each deliverable graded now (`graded`) with what its grade read (left in
 * the grade's scratch by its builds: target/trace.ts) and what the grades of the deliverables
 * whose verdicts it read did, and each measurement made now with what it read. Nothing is stored
 * for a deliverable when a check of it met a time limit or could not run (such a verdict may
 * depend on the machine, not only on the code), nor when what it read is not all known: an entry
 * is never taken on a guess.
 */
export function store(cache: VerdictCache, looked: CacheLookup, graded: string[], found: CachedVerdicts): void {
  const { config, keys } = looked;
  const selected = [...keys.keys()];
  // What each deliverable's grade read, its upstream's included; null when it is not known.
  const inputs = new Map<string, Trace | null>();
  const inputsOf = (id: string, seen: string[]): Trace | null => {
    if (inputs.has(id)) return inputs.get(id)!;
    if (seen.includes(id)) return null;
    let own: Trace | null;
    if (looked.hits.has(id)) own = looked.hits.get(id)!.inputs;
    else if (!graded.includes(id) || found.verdicts.some((v) => v.deliverable === id && (v.limitHit || v.status === "error"))) own = null;
    else {
      const files = deliverableModules(config.rubric, id);
      const read = tracesLeft(config.work, buildName(files.main, files.earlier));
      // Upstream, read precisely: the deliverables its checks require, and those whose file's stand-in it compiled.
      const upstream = read && readsVerdictsOf(config.rubric, id, standInsCompiled(read)).filter((d) => selected.includes(d)).map((d) => inputsOf(d, [...seen, id]));
      own = !read || !upstream || upstream.includes(null) ? null : union([read, ...(upstream as Trace[])]);
    }
    inputs.set(id, own);
    return own;
  };
  for (const id of graded) {
    const key = keys.get(id);
    if (!key) continue;
    const measurements = found.measurements.filter((m) => m.deliverable === id);
    // A measurement is kept whatever became of the checks: it read only the files it ran.
    for (const m of measurements) {
      const read = tracesLeft(config.work, m.report.id);
      if (read) cache.put(measurementKey(key, m.report.id), id, { verdicts: [], measurements: [m], inputs: read });
    }
    if (looked.hits.has(id)) continue; // its checks' verdicts are stored already
    const verdicts = found.verdicts.filter((v) => v.deliverable === id);
    const read = inputsOf(id, []);
    if (verdicts.length === 0 || !read) continue;
    cache.put(key, id, { verdicts, measurements: [], measuredApart: measurements.map((m) => m.report.id), inputs: read });
  }
}
