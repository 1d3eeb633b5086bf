// What graded a report: the Node version that ran the grade and the grader's commit. A tree built
// from the grader's repository (a Gradescope zip, the student template) has no git history of the
// grader's own, so the commit it was built from is written into it, in grader/BUILD.json; a
// checkout of the grader's repository has its commit in git. BUILD.json is read first: a
// student's clone of the template has a .git, but of the student's repository, not the grader's.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";

/** The commit a grader was built from, and whether its files differed from that commit. */
export interface GraderBuild {
  commit: string;
  dirty: boolean;
}

/** What a report records of what graded it (schema 5): the commit is left out when none is known. */
export interface GradedWith extends Partial<GraderBuild> {
  /** process.version of the grade: "v22.12.0". */
  node: string;
}

/** Where a built tree records its commit, relative to the repository root. */
export const BUILD_FILE = "grader/BUILD.json";

/** What BUILD.json holds. */
export interface BuildFile extends GraderBuild {
  buildVersion: 1;
  /** The command that made the tree: "npm run gradescope-zip", "npm run export-student". */
  madeBy: string;
}

/** The files a verdict depends on besides the target's (as the verdict cache counts them): a change to any of them makes a checkout dirty. */
const GRADER_INPUTS = ["grader", "lab", "package-lock.json", ":(exclude)grader/test", ":(exclude)grader/fixtures"];

/** What grades in the tree at `root` now: this Node, and the commit of BUILD.json or else of git (none when neither has one). */
export function gradedWith(root = REPO_ROOT): GradedWith {
  const build = readBuildFile(root) ?? gitBuild(root, GRADER_INPUTS);
  return { node: process.version, ...(build ? { commit: build.commit, dirty: build.dirty } : {}) };
}

/** The commit BUILD.json records in `root`, or undefined when there is none or it is not one this grader wrote. */
export function readBuildFile(root: string): GraderBuild | undefined {
  try {
    const file = JSON.parse(fs.readFileSync(path.join(root, BUILD_FILE), "utf8")) as Partial<BuildFile>;
    if (file.buildVersion !== 1 || typeof file.commit !== "string" || !/^[0-9a-f]{40}$/.test(file.commit) || typeof file.dirty !== "boolean") return undefined;
    return { commit: file.commit, dirty: file.dirty };
  } catch {
    return undefined;
  }
}

/** BUILD.json's text for a tree built from `build` by `madeBy`. */
export function buildFileText(build: GraderBuild, madeBy: string): string {
  const file: BuildFile = { buildVersion: 1, commit: build.commit, dirty: build.dirty, madeBy };
  return JSON.stringify(file, null, 2) + "\n";
}

/**
 * The commit checked out at `root` and whether `paths` (git pathspecs) differ from it, untracked
 * files included; undefined when `root` is not the top of a git repository or git cannot tell.
 */
export function gitBuild(root: string, paths: string[]): GraderBuild | undefined {
  // safe.directory: a grade as root (grade-batch through sudo) reads a checkout another user owns
  // (every path, for this one command: git compares it with the path it resolved, links followed).
  // No optional locks: a grade must not hold the index lock a commit made meanwhile needs.
  const git = (args: string[]) => spawnSync("git", ["-c", "safe.directory=*", ...args], { cwd: root, encoding: "utf8", timeout: 10_000, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } });
  const top = git(["rev-parse", "--show-toplevel"]);
  // A folder inside some other repository (a copy unpacked in someone's checkout) is not that repository's commit.
  if (top.status !== 0 || !samePath(top.stdout.trim(), root)) return undefined;
  const head = git(["rev-parse", "--verify", "HEAD"]);
  const status = git(["status", "--porcelain", "--", ...paths]);
  if (head.status !== 0 || status.status !== 0) return undefined;
  return { commit: head.stdout.trim(), dirty: status.stdout.trim() !== "" };
}

/** "graded with Node v22.12.0, grader f7eee31" (with "(uncommitted changes)" when dirty), for the small print of a report. */
export function gradedWithLine(g: GradedWith): string {
  const grader = g.commit ? `, grader ${g.commit.slice(0, 7)}${g.dirty ? " (uncommitted changes)" : ""}` : "";
  return `Graded with Node ${g.node}${grader}.`;
}

function samePath(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
