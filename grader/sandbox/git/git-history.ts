// The grader's own look at a target's git repository, as git itself reports it, after a scenario's calls:
// the commits on the branch (first parents, oldest first) and what is not committed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gitEnv } from "./git-env.js";
import { readPlainHistory, type TreeFile } from "./plain-repository.js";

/** What the repository in a scenario holds, as git reports it. */
export interface GitHistory {
  /** The subject line of each commit HEAD reaches by first parents, oldest first; [] when there is none. */
  subjects: string[];
  /** The files of the last commit that the work tree holds differently, or not at all. */
  uncommitted: string[];
  /** Why git could not read the history ("not a git repository", ...), when it could not. */
  problem?: string;
}

/**
 * Reads the history of the repository at `repo`: from its files when they are plain (see
 * plain-repository.ts), otherwise with two git commands, which never look above `ceiling`.
 */
export function readGitHistory(repo: string, ceiling: string): GitHistory {
  const plain = readPlainHistory(repo);
  if (plain) return { subjects: plain.subjects, uncommitted: differsFromHead(repo, plain.files) };
  return readWithGit(repo, ceiling);
}

/** The history as git itself reports it: `git log` and `git ls-tree`. */
export function readWithGit(repo: string, ceiling: string): GitHistory {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: repo, env: gitEnv(process.env, ceiling), encoding: "utf8", timeout: 10_000 });
  const log = git("log", "--first-parent", "--reverse", "--format=%s", "HEAD");
  if (log.status !== 0) {
    const said = firstLine(log.stderr);
    const problem = /ambiguous argument 'HEAD'|does not have any commits/.test(said) ? "the repository has no commit" : said || "git could not run";
    return { subjects: [], uncommitted: [], problem };
  }
  return { subjects: log.stdout.split("\n").filter((l) => l !== ""), uncommitted: differsFromHead(repo, treeFiles(git("ls-tree", "-r", "-z", "HEAD").stdout)) };
}

/** The blobs of `git ls-tree -r -z` output. */
function treeFiles(listing: string): TreeFile[] {
  return listing.split("\0").flatMap((line) => {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
    return m ? [{ blob: m[1]!, file: m[2]! }] : [];
  });
}

/**
 * The files of the last commit whose content in the work tree is not what was committed, or that
 * are gone. Compared file by file, not with `git status`: a runner that commits without the index
 * (git commit-tree) leaves the index behind, and that is no lost checkpoint.
 */
function differsFromHead(repo: string, files: TreeFile[]): string[] {
  return files.flatMap(({ blob, file }) => {
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
