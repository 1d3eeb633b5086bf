// `npm run bench -- --against <commit>`: the cold grades a student and a course wait for, measured
// side by side with the grader at an earlier commit, in one run: the reference in full, the
// untouched starter, and the starter with the reference's checkpoint.ts (Phase 1 done), each
// graded by the earlier grader and by this one in turn, `runs` times, and grade-batch's grades per
// minute by both. A machine's speed drifts within an hour; grades taken in turn see the same drift.
// Each pair of reports must be the same grade (durations aside): a faster grader that grades
// differently is a different grader, and the bench says which target's report differs.
import { execa } from "execa";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT, SOLUTION_DIR } from "../../paths.js";
import type { Report } from "../../report/report.js";
import { batchThroughput, type BatchThroughput } from "./batch.js";
import { timedRun } from "./processor-time.js";
import { comparableText } from "../compare/difference.js";

/** One target graded by both graders: wall and processor seconds of each grade, in the order run. */
export interface GradedBoth {
  target: string;
  earlier: { seconds: number[]; cpuSeconds: number[] };
  now: { seconds: number[]; cpuSeconds: number[] };
  /** Whether every grade of the target, by either grader, gave the same report (durations and the grader's own version aside). */
  sameReport: boolean;
  /** How many different reports each grader gave over its runs (1 for a grader that grades the same every time). */
  distinctReports: { earlier: number; now: number };
}

export interface SideBySide {
  /** The earlier commit, in full. */
  commit: string;
  grades: GradedBoth[];
  batch: { earlier: BatchThroughput[]; now: BatchThroughput[] };
}

const STARTER_DIR = path.join(REPO_ROOT, "starter");

/** The targets graded side by side: a folder each, made from the repository's own. */
const TARGETS: { name: string; make: (folder: string) => void }[] = [
  { name: "the reference, in full", make: (f) => fs.cpSync(SOLUTION_DIR, f, { recursive: true }) },
  { name: "the untouched starter", make: (f) => fs.cpSync(STARTER_DIR, f, { recursive: true }) },
  { name: "Phase 1 done, the rest not", make: makePhase1Done },
];

/** A student's submission with Phase 1 done and the rest not started: the starter, with the reference's checkpoint.ts, in `folder`. */
export function makePhase1Done(folder: string): void {
  fs.cpSync(STARTER_DIR, folder, { recursive: true });
  fs.copyFileSync(path.join(SOLUTION_DIR, "checkpoint.ts"), path.join(folder, "checkpoint.ts"));
}

/**
 * Grades each target with the grader at `commit` and with this one, in turn, `runs` times, then
 * measures grade-batch over `batchCopies` copies of the reference with each, at `--jobs` 1 and 2.
 */
export async function sideBySide(work: string, commit: string, runs: number, batchCopies = 4): Promise<SideBySide> {
  const earlier = await checkoutGrader(work, commit);
  try {
    const grades: GradedBoth[] = [];
    const folders = TARGETS.map((t, i) => {
      const folder = path.join(work, "side-by-side", `target-${i + 1}`);
      t.make(folder);
      return folder;
    });
    const measured = TARGETS.map((t) => ({ target: t.name, earlier: { seconds: [] as number[], cpuSeconds: [] as number[] }, now: { seconds: [] as number[], cpuSeconds: [] as number[] }, digests: { earlier: new Set<string>(), now: new Set<string>() } }));
    const sides = [["earlier", earlier.root], ["now", REPO_ROOT]] as const;
    for (let i = 0; i < runs; i++) {
      for (const [t, folder] of folders.entries()) {
        // Each grader goes first in every other run: the second of a pair may find the disk's caches warm.
        for (const [side, root] of i % 2 === 0 ? sides : [...sides].reverse()) {
          const json = path.join(work, "side-by-side", `${side}-${t}.json`);
          // Both from one folder: a report names the target as the command line would, relative to it.
          const run = await timedRun(process.execPath, [path.join(root, "grader/cli/launch.mjs"), "--target", folder, "--json", json, "--no-cache"], { cwd: path.dirname(folder), exitCodes: [0, 1] });
          measured[t]![side].seconds.push(run.seconds);
          if (run.cpuSeconds !== null) measured[t]![side].cpuSeconds.push(run.cpuSeconds);
          measured[t]!.digests[side].add(gradeDigest(JSON.parse(fs.readFileSync(json, "utf8")) as Report));
        }
      }
    }
    for (const { digests, ...m } of measured) {
      grades.push({ ...m, sameReport: new Set([...digests.earlier, ...digests.now]).size === 1, distinctReports: { earlier: digests.earlier.size, now: digests.now.size } });
    }
    const batch = { earlier: [] as BatchThroughput[], now: [] as BatchThroughput[] };
    for (const jobs of [1, 2]) {
      batch.earlier.push(...(await batchThroughput(work, [jobs], batchCopies, { root: earlier.root })));
      batch.now.push(...(await batchThroughput(work, [jobs], batchCopies)));
    }
    return { commit: earlier.commit, grades, batch };
  } finally {
    await earlier.remove();
  }
}

/** A digest of the report as two graders must agree on it (compare/difference.ts): durations and what graded it aside. */
export function gradeDigest(report: Report): string {
  return createHash("sha256").update(comparableText(report)).digest("hex");
}

/**
 * The grader at `commit`, checked out beside this one (a git worktree in `work`), with this
 * repository's packages: only a commit whose package-lock.json is this one's can share them.
 */
export async function checkoutGrader(work: string, commit: string): Promise<{ commit: string; root: string; remove: () => Promise<void> }> {
  const git = (args: string[]) => execa("git", args, { cwd: REPO_ROOT });
  const resolved = await git(["rev-parse", "--verify", "--quiet", `${commit}^{commit}`]).catch(() => null);
  if (!resolved?.stdout) throw new Error(`--against expects a commit of this repository, got ${JSON.stringify(commit)}`);
  const full = resolved.stdout.trim();
  const lock = await git(["show", `${full}:package-lock.json`]).catch(() => null);
  if (lock?.stdout.trim() !== fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8").trim()) {
    throw new Error(`--against ${commit}: expected a commit with this package-lock.json (its grader then runs on these packages), got one whose packages differ: measure it from a clone of its own with npm ci`);
  }
  const root = path.join(work, "earlier-grader");
  await git(["worktree", "add", "--detach", "--quiet", root, full]);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"));
  return { commit: full, root, remove: async () => void (await git(["worktree", "remove", "--force", root])) };
}

/** The lines the bench prints for a side-by-side run: medians, each grader's, and their ratio. */
export function sideBySideLines(s: SideBySide, median: (xs: number[]) => number): string[] {
  const f = (n: number, digits = 1) => n.toFixed(digits);
  const lines = [`side by side with the grader at ${s.commit.slice(0, 7)} (grades in turn, medians; earlier -> now):`];
  for (const g of s.grades) {
    const wall = `${f(median(g.earlier.seconds))} -> ${f(median(g.now.seconds))} s wall (${f(median(g.now.seconds) / median(g.earlier.seconds), 2)}x)`;
    const cpu = g.now.cpuSeconds.length > 0 ? `, ${f(median(g.earlier.cpuSeconds))} -> ${f(median(g.now.cpuSeconds))} s of processors (${f(median(g.now.cpuSeconds) / median(g.earlier.cpuSeconds), 2)}x)` : "";
    const reports = g.sameReport ? "the same report from both" : `REPORTS DIFFER: ${g.distinctReports.earlier} different from the earlier grader, ${g.distinctReports.now} from this one`;
    lines.push(`  ${g.target}: ${wall}${cpu}; ${reports}`);
  }
  for (const [i, now] of s.batch.now.entries()) {
    const before = s.batch.earlier[i]!;
    lines.push(`  grade-batch --jobs ${now.jobs}: ${f(before.gradesPerMinute, 2)} -> ${f(now.gradesPerMinute, 2)} grades/min`);
  }
  return lines;
}
