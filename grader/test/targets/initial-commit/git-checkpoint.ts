// Correct: the initial state is committed first, as "initial state" (a commit that names no step,
// which the handout allows only first), then one commit per step; recovery resets to the last commit.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { RunOptions, RunResult } from "./runner";

interface Saved<S> { nextStep: number; state: S }

export function runTask<S>({ task, checkpointPath, maxSteps = Infinity }: RunOptions<S>): RunResult<S> {
  const repo = path.dirname(checkpointPath);
  const file = path.basename(checkpointPath);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8", stdio: "pipe" });
  if (!fs.existsSync(path.join(repo, ".git"))) git("init", "-q");
  fs.rmSync(path.join(repo, ".git", "index.lock"), { force: true });
  const hasHead = spawnSync("git", ["rev-parse", "--verify", "-q", "HEAD"], { cwd: repo }).status === 0;
  if (hasHead) git("reset", "--hard", "-q");
  else {
    fs.writeFileSync(checkpointPath, JSON.stringify({ nextStep: 1, state: task.initialState() }));
    git("add", file);
    git("commit", "-q", "-m", "initial state");
  }
  let { nextStep, state } = JSON.parse(fs.readFileSync(checkpointPath, "utf8")) as Saved<S>;
  for (let ran = 0; nextStep <= task.steps && ran < maxSteps; ran++) {
    state = task.runStep(nextStep, state);
    fs.writeFileSync(checkpointPath, JSON.stringify({ nextStep: nextStep + 1, state }));
    git("add", file);
    git("commit", "-q", "-m", `step ${nextStep}`);
    nextStep++;
  }
  return { status: nextStep > task.steps ? "done" : "paused", nextStep, state };
}
