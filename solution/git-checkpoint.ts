// Stretch reference: git-backed checkpoints. The same runTask as runner.ts, with git keeping the
// checkpoint. The folder of `checkpointPath` is a git repository; after every step the state file
// is written (in place: git, not a rename, makes the checkpoint atomic) and committed with a
// message that names the step. The last commit is the checkpoint, so a crash anywhere leaves it
// intact: on start, a lock that a killed git left behind is removed, `git reset --hard` throws away
// whatever the crash left in the work tree, and the run resumes from the state in that commit.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { RunOptions, RunResult } from "./runner";

interface Saved<S> {
  taskId: string;
  nextStep: number;
  state: S;
}

export function runTask<S>({ task, checkpointPath, maxSteps = Infinity }: RunOptions<S>): RunResult<S> {
  const repo = path.dirname(checkpointPath);
  const saved = recover<S>(repo, checkpointPath);
  let { nextStep, state } = saved ?? { nextStep: 1, state: task.initialState() };
  for (let ran = 0; nextStep <= task.steps && ran < maxSteps; ran++) {
    state = task.runStep(nextStep, state);
    fs.writeFileSync(checkpointPath, JSON.stringify({ taskId: task.id, nextStep: nextStep + 1, state } satisfies Saved<S>));
    git(repo, "add", "--", path.basename(checkpointPath));
    git(repo, "commit", "--quiet", "-m", `step ${nextStep}`);
    nextStep += 1;
  }
  return { status: nextStep > task.steps ? "done" : "paused", nextStep, state };
}

/** Makes `repo` a repository, puts it back at its last commit, and returns the state committed there (null before the first commit). */
function recover<S>(repo: string, checkpointPath: string): Saved<S> | null {
  if (!fs.existsSync(path.join(repo, ".git"))) {
    git(repo, "init", "--quiet");
    return null;
  }
  // Only this process uses the repository, so a lock is what a killed git left behind: without
  // removing it, every later git command that writes would refuse to run.
  fs.rmSync(path.join(repo, ".git", "index.lock"), { force: true });
  const head = spawnSync("git", ["rev-parse", "--verify", "--quiet", "HEAD"], { cwd: repo });
  if (head.status !== 0) return null;
  git(repo, "reset", "--hard", "--quiet", "HEAD");
  return JSON.parse(fs.readFileSync(checkpointPath, "utf8")) as Saved<S>;
}

function git(repo: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: repo, encoding: "utf8", stdio: "pipe" });
}
