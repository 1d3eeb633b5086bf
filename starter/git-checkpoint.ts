// Stretch: git-backed checkpoints. The same runTask as runner.ts, with git keeping the checkpoint
// instead of a temp file and a rename. See "Stretch: git-backed checkpoints" in the handout.
//
// The folder that holds `checkpointPath` is your repository (the grader gives you an empty one).
// Run git with execFileSync("git", [...], { cwd: repo }) from "node:child_process".
import type { RunOptions, RunResult } from "./runner";

/**
 * Runs the task from the last commit, writing the state file and committing it after every step.
 *
 * Think about what a commit gives you that a plain write does not: until `git commit` has
 * finished, the last commit still holds the previous checkpoint, whatever the work tree holds.
 * So after a crash, which of the two should the next run trust, and how do you make the work tree
 * agree with it? And if git itself was killed halfway, what does it leave in `.git/` that makes
 * the next git command refuse to run?
 */
export function runTask<S>(options: RunOptions<S>): RunResult<S> {
  // TODO: make the folder a repository if it is not one yet; after a crash, restore the last
  // commit; then run the remaining steps, writing the state file and committing it after each one
  // with a message that names the step ("step 3").
  throw new Error("not implemented yet: runTask (starter/git-checkpoint.ts)");
}
