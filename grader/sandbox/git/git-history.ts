// The grader's own look at a target's git repository, with git itself, after a scenario's calls:
// the commits on the branch (first parents, oldest first) and what is not committed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
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

/** Reads the history of the repository at `repo` (two git commands); git never looks above `ceiling`. */
export function readGitHistory(repo: string, ceiling: string): GitHistory {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: repo, env: gitEnv(process.env, ceiling), encoding: "utf8", timeout: 10_000 });
  const log = git("log", "--first-parent", "--reverse", "--format=%s", "HEAD");
  if (log.status !== 0) {
    const said = firstLine(log.stderr);
    const problem = /ambiguous argument 'HEAD'|does not have any commits/.test(said) ? "the repository has no commit" : said || "git could not run";
    return { subjects: [], uncommitted: [], problem };
  }
  return { subjects: log.stdout.split("\n").filter((l) => l !== ""), uncommitted: differsFromHead(repo, git("ls-tree", "-r", "-z", "HEAD").stdout) };
}

/**
 * The files of the last commit (`tree`: `git ls-tree -r -z HEAD`) whose content in the work tree
 * is not what was committed, or that are gone. Compared file by file, not with `git status`: a
 * runner that commits without the index (git commit-tree) leaves the index behind, and that is
 * no lost checkpoint.
 */
function differsFromHead(repo: string, tree: string): string[] {
  return tree.split("\0").flatMap((line) => {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (!m) return [];
    const [, blob, file] = m as unknown as [string, string, string];
    let content: Buffer;
    try {
      content = fs.readFileSync(path.join(repo, file));
    } catch {
      return [file];
    }
    // Git names a file's content by the hash of "blob <size>\0" and the bytes (SHA-256 in a repository made for it).
    const hash = createHash(blob.length === 64 ? "sha256" : "sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
    return hash === blob ? [] : [file];
  });
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}
