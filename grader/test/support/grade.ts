// Runs `npm run grade` as a student would (a separate process) and reads back its JSON report.
import { execa } from "execa";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dir } from "tmp-promise";
import { REPO_ROOT, SOLUTION_DIR } from "../../paths.js";
import type { CheckReport, Report } from "../../report/report.js";
import { readReport } from "../../report/read-report.js";
import { renderScoreboard } from "../../report/terminal.js";
import { sharedWait, wholeFileFailure } from "../../report/whole-file.js";
import { deliverablesOfFile, loadRubric, withRequirements, type Rubric } from "../../rubric.js";
import { CACHE_DIR_VARIABLE } from "../../cli/verdict-cache.js";
import { DEFAULT_LIMITS, type Limits } from "../../sandbox/messages/limits.js";

export interface GradeRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  report: Report | null;
}

/** The command students run, `npm run grade`, without npm. */
export const LAUNCH = path.join(REPO_ROOT, "grader/cli/launch.mjs");

/**
 * Grades `target` with extra command-line `args` (and `env` on top of this process's); never
 * throws for a non-zero exit. Every deliverable is graded (--no-cache) unless `args` holds "--cache".
 */
export async function grade(target: string | null, args: string[] = [], cwd = REPO_ROOT, env: NodeJS.ProcessEnv = {}): Promise<GradeRun> {
  args = args.includes("--cache") ? args.filter((a) => a !== "--cache") : ["--no-cache", ...args];
  const targetArgs = target === null ? [] : ["--target", target];
  return withReport((json) => execa(process.execPath, [LAUNCH, ...targetArgs, "--json", json, ...args], { cwd, reject: false, env: { NO_COLOR: "1", ...env } }));
}

/**
 * Grades `target` as `grade` does, but under a real terminal of `columns` columns (through
 * `script`). With `cacheHome`, the verdict cache is on, in that folder with its secret (cacheEnv):
 * a first grade with a new `cacheHome` grades everything, and a later one with the same
 * `cacheHome` and code takes every verdict from the cache; without it, every deliverable is graded (--no-cache). `stdout` is what
 * was written to the terminal once the live progress erased itself (the scoreboard and what
 * follows), its line ends "\n" (a carriage return alone, which redraws a line, is kept).
 */
export async function gradeInTerminal(target: string, args: string[], { columns, cacheHome }: { columns: number; cacheHome?: string }): Promise<GradeRun> {
  const run = await withReport((json) => {
    const words = [process.execPath, LAUNCH, "--target", target, "--json", json, ...(cacheHome ? [] : ["--no-cache"]), ...args].map(shellWord);
    const env = ["NO_COLOR=1", ...Object.entries(cacheHome ? cacheEnv(cacheHome) : {}).map(([name, value]) => `${name}=${shellWord(value!)}`)].join(" ");
    return execa("script", ["-qec", `stty cols ${columns} rows 50; ${env} ${words.join(" ")}`, "/dev/null"], { cwd: REPO_ROOT, reject: false, stdin: "ignore" });
  });
  // The live progress's last write moves the cursor back up to where it began (ESC [n A, then a
  // carriage return): what follows stays on the screen. A story cannot hold that sequence: the
  // report shows control characters as text.
  const end = [...run.stdout.matchAll(/\x1b\[\d+A\r/g)].at(-1);
  const stays = end ? run.stdout.slice(end.index! + end[0].length) : run.stdout;
  return { ...run, stdout: stays.replace(/\r\n/g, "\n") };
}

/**
 * The environment of a grade whose verdict cache is in `home` (its secret too), CI set or not:
 * `grade(target, ["--cache", ...], cwd, cacheEnv(home))`. A grade that counts runs with
 * --no-cache, which the variable does not turn on.
 */
export function cacheEnv(home: string): NodeJS.ProcessEnv {
  return { XDG_CACHE_HOME: home, [CACHE_DIR_VARIABLE]: path.join(home, "cache") };
}

/** The deliverables the cache in `home` (cacheEnv) holds an entry of, sorted. */
export function deliverablesCached(home: string): string[] {
  const folder = path.join(home, "cache");
  const names = fs.existsSync(folder) ? fs.readdirSync(folder).filter((n) => n.endsWith(".json")) : [];
  return [...new Set(names.map((n) => (JSON.parse(fs.readFileSync(path.join(folder, n), "utf8")) as { deliverable: string }).deliverable))].sort();
}

/** The report without what a grade through the cache may change: durations, measured times, and which deliverables (and measurements) came from it. */
export function sameGrade(report: Report): Report {
  return comparable({ ...report, deliverables: report.deliverables.map((d) => ({ ...d, cached: undefined, remeasured: undefined })) });
}

/** Runs a grade that `start` begins, given where to write its JSON report; reads the report back (null when there is none). */
async function withReport(start: (json: string) => Promise<{ exitCode?: number; stdout?: unknown; stderr?: unknown }>): Promise<GradeRun> {
  const { path: out, cleanup } = await dir({ unsafeCleanup: true });
  try {
    const json = path.join(out, "report.json");
    const run = await start(json);
    // Every report a test reads must match the report's schema.
    const report = fs.existsSync(json) ? readReport(json) : null;
    return { exitCode: run.exitCode ?? -1, stdout: String(run.stdout), stderr: String(run.stderr), report };
  } finally {
    await cleanup();
  }
}

/** The scoreboard `report` prints when the output is not a terminal, with the seconds the grade printed (`printed`, its output). */
export function plainScoreboard(report: Report, printed: string): string {
  const seconds = Number(/checked in ([\d.]+)\u00a0s/.exec(printed)?.[1]);
  if (!(seconds > 0)) throw new Error(`no "checked in N s" in what the grade printed:\n${printed}`);
  return renderScoreboard(report, { color: false, seconds, width: 80 });
}

/** The check `id` in a report, wherever its deliverable is. */
export function checkOf(report: Pick<Report, "deliverables"> | null, id: string): CheckReport | undefined {
  return report?.deliverables.flatMap((d) => d.checks).find((c) => c.id === id);
}

/** `word` quoted for a POSIX shell. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Writes the repository's rubric with the `limits` given changed into `folder`; returns its path. */
export function rubricWithLimits(folder: string, limits: Partial<Limits>): string {
  const rubric = loadRubric();
  const file = path.join(folder, "rubric.json");
  fs.writeFileSync(file, JSON.stringify({ ...rubric, limits: { ...rubric.limits, ...limits } }));
  return file;
}

/** A target folder outside the repository (`at`, emptied first, or a new one): the reference solution with `overlay`'s files on top. */
export async function composeTarget(overlay?: string, { at }: { at?: string } = {}): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const target = at ? await emptyFolder(at) : await dir({ unsafeCleanup: true, tmpdir: os.tmpdir(), prefix: "target-" });
  fs.cpSync(SOLUTION_DIR, target.path, { recursive: true });
  if (overlay) for (const name of fs.readdirSync(overlay)) if (name.endsWith(".ts")) fs.copyFileSync(path.join(overlay, name), path.join(target.path, name));
  return target;
}

/** `folder`, made empty (whatever an earlier use left there), and a cleanup that removes it. */
async function emptyFolder(folder: string): Promise<{ path: string; cleanup: () => Promise<void> }> {
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  return { path: folder, cleanup: async () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/**
 * What a scoreboard says, whatever the width it was wrapped to: a command broken over lines
 * (" \" at each break) joined again, and every run of white space one space.
 */
export function prose(output: string): string {
  return output.replace(/ \\\n\s*/g, " ").replace(/\s+/g, " ").trim();
}

/** Every check's message in `report`, each as `prose` reads it, one a line: what a fixture's `says` is looked for in. */
export function allStories(report: Report): string {
  return report.deliverables.flatMap((d) => d.checks).map((c) => prose(c.message ?? "")).join("\n");
}

/** The ids of checks that did not pass, sorted. */
export function notPassed(report: Report): string[] {
  return report.deliverables.flatMap((d) => d.checks.filter((c) => c.status !== "passed").map((c) => c.id)).sort();
}

/** Each check that did not pass, with its message: what a test that expects none shows when one fails. */
export function notPassedWhy(report: Report): Record<string, string> {
  return Object.fromEntries(report.deliverables.flatMap((d) => d.checks.filter((c) => c.status !== "passed").map((c) => [c.id, c.message ?? c.status])));
}

/** The report without what legitimately varies between runs (durations, target name, measured times). */
export function comparable(report: Report): Report {
  const deliverables = report.deliverables.map((d) => ({
    ...d,
    durationMs: 0,
    checks: d.checks.map((c) => ({ ...c, durationMs: 0 })),
    measurements: d.measurements?.map((m) => ({ ...m, data: null, rows: m.rows.map((r) => (r.varies ? { ...r, cells: [] } : r)) })),
  }));
  // What graded it (its Node, the grader's commit and whether its tree was dirty) is not the grade.
  return { ...report, target: "", gradedWith: undefined, deliverables, stats: { ...report.stats, durationMs: 0 } };
}


export interface Fixture {
  /** "phase1/write-in-place" */
  name: string;
  dir: string;
  note?: string;
  /** The checks it must not pass. */
  fails: string[];
  /** The checks it must not pass when its code runs as a user of its own (as root), when that differs. */
  failsAsOwnUser?: string[];
  /** `--only` arguments: none for a fixture marked "full", else the deliverables it names ("grades"), else those of its file. */
  only: string[];
  /** Words one of its failures must say. */
  says?: string;
}

/**
 * The fixtures under `root/<group>/<name>/`. One marked "full" is graded in full, to show the
 * other deliverables keep every point; the others on the deliverables of their own file, which
 * keeps the suite to minutes (the fallback to reference files is the same for all of them).
 */
export function loadFixtures(root: string, groups: string[]): Fixture[] {
  const rubric = loadRubric();
  return groups.flatMap((group) =>
    fs.readdirSync(path.join(root, group)).map((name) => {
      const dir = path.join(root, group, name);
      const spec = JSON.parse(fs.readFileSync(path.join(dir, "fixture.json"), "utf8")) as { note?: string; fails: string[]; failsAsOwnUser?: string[]; full?: boolean; grades?: string[]; says?: string };
      const file = fs.readdirSync(dir).find((f) => f.endsWith(".ts"))!;
      const only = spec.full ? [] : (spec.grades ?? deliverablesOfFile(rubric, file)).flatMap((d) => ["--only", d]);
      return { name: `${group}/${name}`, dir, note: spec.note, fails: spec.fails, failsAsOwnUser: spec.failsAsOwnUser, only, says: spec.says };
    }),
  );
}

/**
 * The titles a scoreboard of `report` shows in full: every deliverable's, and every check's of a
 * deliverable shown check by check (one not started, whose file fails as a whole, or whose checks
 * all wait on the same one is a single line).
 */
export function titlesShown(report: Report): string[] {
  const oneLine = (d: Report["deliverables"][number]) => d.notStarted !== undefined || wholeFileFailure(d) !== undefined || sharedWait(d) !== undefined;
  return report.deliverables.flatMap((d) => [d.title, ...(oneLine(d) ? [] : d.checks.map((c) => c.title))]);
}

/**
 * The fixtures that show deliverable `id`'s checks at work, for a run of that deliverable alone
 * (`npm run test:deliverable`): those of its own group; those of another that must lose one of its
 * checks while every check those build on holds (one that loses a check they require shows only
 * that they wait for it, as many Phase 1 fixtures show the bonus tiers'); and the correct ones
 * graded on it (a right answer must keep its points).
 */
export function fixturesOf(fixtures: Fixture[], rubric: Rubric, id: string): Fixture[] {
  const own = (check: string) => check.startsWith(`${id}.`);
  // What its checks require from outside it (withRequirements lists the deliverable itself first).
  const required = new Set(withRequirements(rubric, [id]).filter((r) => r !== id && !own(r)));
  const gradedOn = (f: Fixture) => f.only.length === 0 || f.only.includes(id);
  const showsOwn = (f: Fixture) => f.fails.some(own) && !f.fails.some((c) => required.has(c));
  return fixtures.filter((f) => f.name.startsWith(`${id}/`) || showsOwn(f) || (f.name.startsWith("correct/") && gradedOn(f)));
}

// Shorter time limits than the defaults keep the hostile fixtures' grades fast; still generous for
// correct code: the reference's sessions use under 0.1 s of processor each, and a process that
// spins or never exits costs its check this limit each time it runs (with 15 s, session-spins took 63 s).
export const HOSTILE_LIMITS: Limits = { ...DEFAULT_LIMITS, callMs: 2_000, processMs: 5_000 };

/** The fixtures under grader/fixtures but the hostile and contained ones, which have tests of their own (hostile.test.ts, contained.test.ts). */
export function buggyFixtures(): Fixture[] {
  const root = path.join(REPO_ROOT, "grader/fixtures");
  return loadFixtures(root, fs.readdirSync(root).filter((d) => d !== "hostile" && d !== "contained"));
}

/** The exit code a grade with `only` must have when `fails` do not pass: 1 when one of them counts (a core check, or one `--only` names). */
export function expectedExit(report: Report, fails: string[], only: string[]): number {
  const named = (id: string) => only.some((o) => o === id || o === id.split(".")[0]);
  const counted = new Set(report.deliverables.filter((d) => d.kind === "core" || named(d.id)).flatMap((d) => d.checks.map((c) => c.id)));
  return fails.some((id) => counted.has(id)) ? 1 : 0;
}
