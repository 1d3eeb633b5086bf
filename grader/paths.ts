// Where the grader's own files are, whatever the current directory is.
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root that holds grader/, lab/, starter/ and solution/ (this file runs from grader/, or compiled into .grade/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The lab's reference implementation: graded as a target (`--target solution`), never run in place of a student's file. */
export const SOLUTION_DIR = path.join(REPO_ROOT, "solution");

/** The grader's stand-ins for a student's earlier files (checkpoint.ts, runner.ts): they hold no answer (see grader/stand-ins/). */
export const STAND_INS_DIR = path.join(REPO_ROOT, "grader", "stand-ins");
