// The verdict cache of a student's own grades: a deliverable whose inputs have not changed since
// a grade on this machine takes that grade's verdicts instead of running again (grades are
// deterministic, so a cached verdict is the same verdict). Its key holds everything a verdict
// depends on: the grader's own code (its stand-ins included) and lab files, the rubric, the seed, the checks
// selected, the code the deliverable compiles (its file and everything it imports), the keys of
// the deliverables its checks build on, who the code runs as, and the Node version. An entry is
// signed with a secret of this machine's user: a corrupt, foreign or forged one is ignored.
// A grade that counts (CI, the platforms' scripts, grade-batch) never reads or writes it.
import { createHash, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isSelected, type GradeConfig } from "../grading/config.js";
import type { CheckMeta } from "../grading/verdict.js";
import type { MeasurementMeta } from "../report/measurement.js";
import { REPO_ROOT } from "../paths.js";
import { deliverableModules } from "../rubric.js";
import { bundleTarget } from "../target/bundle.js";

/** The shape of an entry; a new shape makes every older entry a miss. */
const FORMAT = 1;
/** The most entries kept: the oldest go first. */
export const MAX_ENTRIES = 64;
/** The folders whose files are the grader's inputs (besides the target's): its code, the lab. */
const GRADER_INPUTS = ["grader", "lab", "package-lock.json"];
/** Folders of the grader that no verdict depends on: its own tests and their fixtures. */
const NOT_INPUTS = new Set([path.join("grader", "test"), path.join("grader", "fixtures")]);

/** What a deliverable's grade left: its checks' verdicts and what it measured. */
export interface CachedVerdicts {
  verdicts: CheckMeta[];
  measurements: MeasurementMeta[];
}

interface Entry extends CachedVerdicts {
  format: number;
  key: string;
  deliverable: string;
  mac: string;
}

/** Why the cache is not used for this grade, or null when it is. */
export function cacheOff(opts: { noCache: boolean; replay: boolean; env: NodeJS.ProcessEnv }): string | null {
  if (opts.noCache) return "--no-cache";
  if (opts.env.CI) return "CI is set: a grade that counts never reads a cache";
  if (opts.replay) return "a replay runs its case";
  return null;
}

/** The cache in `dir` (.grade/cache in the repository by default), signed with this user's secret. */
export class VerdictCache {
  private constructor(
    private readonly dir: string,
    private readonly secret: Buffer,
  ) {}

  static open(dir = path.join(REPO_ROOT, ".grade", "cache"), secretFile = defaultSecretFile()): VerdictCache | null {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return new VerdictCache(dir, readOrMakeSecret(secretFile));
    } catch {
      return null; // no cache where none can be kept: the grade runs in full
    }
  }

  /** The verdicts stored under `key` for `deliverable`, or undefined for a miss (absent, corrupt, foreign, or of another shape). */
  get(key: string, deliverable: string): CachedVerdicts | undefined {
    try {
      const entry = JSON.parse(fs.readFileSync(this.file(key), "utf8")) as Entry;
      if (entry.format !== FORMAT || entry.key !== key || entry.deliverable !== deliverable) return undefined;
      if (entry.mac !== this.sign(entry)) return undefined;
      if (!Array.isArray(entry.verdicts) || entry.verdicts.some((v) => v.deliverable !== deliverable)) return undefined;
      return { verdicts: entry.verdicts, measurements: Array.isArray(entry.measurements) ? entry.measurements : [] };
    } catch {
      return undefined;
    }
  }

  /** Stores a deliverable's verdicts under `key`, then drops the oldest entries beyond MAX_ENTRIES. */
  put(key: string, deliverable: string, value: CachedVerdicts): void {
    const entry = { format: FORMAT, key, deliverable, verdicts: value.verdicts, measurements: value.measurements, mac: "" };
    entry.mac = this.sign(entry);
    try {
      const file = this.file(key);
      fs.writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(entry));
      fs.renameSync(`${file}.${process.pid}.tmp`, file);
      const entries = fs.readdirSync(this.dir).filter((n) => n.endsWith(".json")).map((n) => ({ n, t: fs.statSync(path.join(this.dir, n)).mtimeMs }));
      for (const old of entries.sort((a, b) => b.t - a.t).slice(MAX_ENTRIES)) fs.rmSync(path.join(this.dir, old.n), { force: true });
    } catch {
      // A cache that cannot be written only costs the next grade its time.
    }
  }

  private file(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }

  private sign(entry: Omit<Entry, "mac"> & { mac?: string }): string {
    const { mac: _mac, ...body } = entry;
    return createHmac("sha256", this.secret).update(JSON.stringify(body)).digest("hex");
  }
}

/**
 * The key of each selected deliverable's verdicts in this grade; a deliverable whose code cannot
 * be compiled here gets none (it is graded, and says why).
 */
export async function verdictKeys(config: GradeConfig, deliverables: string[]): Promise<Map<string, string>> {
  const grader = graderDigest();
  const keys = new Map<string, string>();
  const scratch = fs.mkdtempSync(path.join(config.work, "cache-key-"));
  const own = new Map<string, string | null>();
  for (const id of deliverables) {
    const files = deliverableModules(config.rubric, id);
    const bundle = await bundleTarget({ targetDir: config.targetDir, file: `${files.main}.ts`, outFile: path.join(scratch, `${id}.cjs`) });
    own.set(id, bundle.ok ? bundle.code : null);
  }
  fs.rmSync(scratch, { recursive: true, force: true });
  // A deliverable's key holds the keys of the deliverables its checks build on (their verdicts decide whether its checks run).
  const keyOf = (id: string, seen: string[] = []): string | null => {
    if (keys.has(id)) return keys.get(id)!;
    const code = own.get(id);
    if (!code || seen.includes(id)) return null;
    const deliverable = config.rubric.deliverables.find((d) => d.id === id)!;
    const builtOn = [...new Set(deliverable.checks.flatMap((c) => c.requires ?? []).map((r) => r.split(".")[0]!).filter((d) => d !== id))];
    const upstream = builtOn.map((d) => (own.has(d) ? keyOf(d, [...seen, id]) : `not graded: ${d}`));
    if (upstream.includes(null)) return null;
    const key = createHash("sha256")
      .update(JSON.stringify({
        format: FORMAT, grader, rubric: config.rubric, seed: config.seed, node: process.version, code, upstream, target: config.targetArg,
        selected: deliverable.checks.map((c) => c.id).filter((c) => isSelected(config, c)),
        separateUser: config.identity?.separate ?? false,
      }))
      .digest("hex");
    keys.set(id, key);
    return key;
  };
  for (const id of deliverables) keyOf(id);
  return keys;
}

/** A digest of the grader's own inputs: every file of its code, the lab and the lockfile, by path and content. */
function graderDigest(): string {
  const hash = createHash("sha256");
  const walk = (rel: string) => {
    const abs = path.join(REPO_ROOT, rel);
    if (!fs.existsSync(abs) || NOT_INPUTS.has(rel)) return;
    if (fs.statSync(abs).isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) if (name !== "node_modules" && !name.startsWith(".")) walk(path.join(rel, name));
    } else hash.update(`${rel}\0`).update(fs.readFileSync(abs)).update("\0");
  };
  for (const input of GRADER_INPUTS) walk(input);
  return hash.digest("hex");
}

function defaultSecretFile(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "checkpoint-lab", "cache-secret");
}

/** This user's secret (made once, readable by this user only). */
function readOrMakeSecret(file: string): Buffer {
  try {
    const secret = fs.readFileSync(file);
    if (secret.length >= 32) return secret;
  } catch {
    // None yet.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** What the cache gives a grade: each selected deliverable's key, and the verdicts of those it holds. */
export interface CacheLookup {
  keys: Map<string, string>;
  hits: Map<string, CachedVerdicts>;
}

/** Looks up each of `deliverables` in `cache`. */
export async function lookUp(cache: VerdictCache, config: GradeConfig, deliverables: string[]): Promise<CacheLookup> {
  const keys = await verdictKeys(config, deliverables);
  const hits = new Map<string, CachedVerdicts>();
  for (const [id, key] of keys) {
    const hit = cache.get(key, id);
    if (hit) hits.set(id, hit);
  }
  return { keys, hits };
}

/**
 * Stores the verdicts of each deliverable graded now (`graded`), unless a check of it met a
 * time limit or could not run: such a verdict may depend on the machine, not only on the code.
 */
export function store(cache: VerdictCache, keys: Map<string, string>, graded: string[], found: CachedVerdicts): void {
  for (const id of graded) {
    const key = keys.get(id);
    const verdicts = found.verdicts.filter((v) => v.deliverable === id);
    if (!key || verdicts.length === 0 || verdicts.some((v) => v.limitHit || v.status === "error")) continue;
    cache.put(key, id, { verdicts, measurements: found.measurements.filter((m) => m.deliverable === id) });
  }
}
