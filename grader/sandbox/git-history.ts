// The grader's own look at a target's git repository, with git itself, after a scenario's calls:
// the commits on the branch (first parents, oldest first) and what is not committed.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { gitEnv } from "./git-env.js";

/** What the repository in a scenario holds, as git reports it. */
export interface GitHistory {
  /** The subject line of each commit HEAD reaches by first parents, oldest first; [] when there is none. */
  subjects: string[];
  /** The files of the last commit that the work tree holds differently, or not at all. */
  uncommitted: string[];
  /** Why git could not read the history ("not a git repository", ...), when it could not. */
  problem?: string;
}

/** Reads the history of the repository at `repo`; git never looks above `ceiling`. */
export function readGitHistory(repo: string, ceiling: string): GitHistory {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: repo, env: gitEnv(process.env, ceiling), encoding: "utf8", timeout: 10_000 });
  const top = git("rev-parse", "--show-toplevel");
  if (top.status !== 0) return { subjects: [], uncommitted: [], problem: firstLine(top.stderr) || "git could not run" };
  const head = git("rev-parse", "--verify", "--quiet", "HEAD");
  if (head.status !== 0) return { subjects: [], uncommitted: [], problem: "the repository has no commit" };
  const log = git("log", "--first-parent", "--reverse", "--format=%s", "HEAD");
  if (log.status !== 0) return { subjects: [], uncommitted: [], problem: firstLine(log.stderr) };
  return { subjects: log.stdout.split("\n").filter((l) => l !== ""), uncommitted: differsFromHead(git) };
}

/** The files of the last commit whose content in the work tree is not what was committed (or that are gone). */
function differsFromHead(git: (...args: string[]) => SpawnSyncReturns<string>): string[] {
  // Compared file by file, not with `git status`: a runner that commits without the index
  // (git commit-tree) leaves the index behind, and that is no lost checkpoint.
  const files = git("ls-tree", "-r", "-z", "HEAD").stdout.split("\0").filter((l) => l !== "").flatMap((line) => {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
    return m ? [{ blob: m[1]!, path: m[2]! }] : [];
  });
  if (files.length === 0) return [];
  const hashed = git("hash-object", "--no-filters", "--", ...files.map((f) => f.path));
  const hashes = hashed.status === 0 ? hashed.stdout.split("\n") : [];
  return files.flatMap((f, i) => (hashes[i] === f.blob ? [] : [f.path]));
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}
