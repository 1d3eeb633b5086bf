// Where the grader's own files are, whatever the current directory is.
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root that holds grader/, lab/, starter/ and solution/ (this file runs from grader/, or compiled into .grade/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The lab's pristine reference implementation. */
export const SOLUTION_DIR = path.join(REPO_ROOT, "solution");

export { LAB_SPECIFIER } from "./sandbox/runtime/target/lab-module.js";
