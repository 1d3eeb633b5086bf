// Students' repositories for the regrade tests: each a bare repository at <root>/<owner>/<name>.git,
// made from commits with the dates given (author and committer), ready to be served over dumb
// HTTP (`git update-server-info` run) or cloned from the folder.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";

/** One commit: when it was made, and what it does to the work tree. */
export interface StudentCommit {
  /** ISO 8601, used as both author and committer date. */
  date: string;
  message: string;
  /** Changes the work tree (every file in it is committed, removals too). */
  write: (workTree: string) => void;
}

/** Git with a fixed identity and no user or system configuration, so commits are alike everywhere. */
function git(args: string[], cwd: string, date?: string) {
  const dates = date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {};
  return execa("git", args, { cwd, env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Student", GIT_AUTHOR_EMAIL: "student@example.org", GIT_COMMITTER_NAME: "Student", GIT_COMMITTER_EMAIL: "student@example.org", ...dates } });
}

/** Makes the bare repository <root>/<repository>.git on branch main from `commits`, in order; returns its path. */
export async function makeStudentRepo(root: string, repository: string, commits: StudentCommit[]): Promise<string> {
  const work = await dir({ unsafeCleanup: true, prefix: "student-" });
  try {
    await git(["init", "--quiet", "--initial-branch=main"], work.path);
    for (const commit of commits) {
      commit.write(work.path);
      await git(["add", "--all"], work.path);
      await git(["commit", "--quiet", "--allow-empty", "-m", commit.message], work.path, commit.date);
    }
    const bare = path.join(root, `${repository}.git`);
    fs.mkdirSync(path.dirname(bare), { recursive: true });
    await git(["clone", "--quiet", "--bare", work.path, bare], root);
    await git(["update-server-info"], bare);
    return bare;
  } finally {
    await work.cleanup();
  }
}

/** The commit a clone's HEAD is at, and its subject. */
export async function headOf(clone: string): Promise<{ commit: string; subject: string }> {
  const { stdout } = await git(["log", "-1", "--format=%H %s"], clone);
  const [commit = "", ...subject] = stdout.split(" ");
  return { commit, subject: subject.join(" ") };
}
