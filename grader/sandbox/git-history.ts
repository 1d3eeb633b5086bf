// The grader's own look at a target's git repository, with git itself, after a scenario's calls:
// the commits on the branch (first parents, oldest first) and what is not committed.
import { spawnSync } from "node:child_process";
import { gitEnv } from "./git-env.js";

/** What the repository in a scenario holds, as git reports it. */
export interface GitHistory {
  /** The subject line of each commit HEAD reaches by first parents, oldest first; [] when there is none. */
  subjects: string[];
  /** `git status --porcelain` lines for tracked files that differ from HEAD. */
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
  const status = git("status", "--porcelain", "--untracked-files=no");
  return { subjects: log.stdout.split("\n").filter((l) => l !== ""), uncommitted: status.stdout.split("\n").filter((l) => l !== "") };
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}
