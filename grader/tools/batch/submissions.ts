// The submissions of a batch: every folder directly inside the submissions folder, and how each
// is laid out (a clone of a student's repository, or a starter folder on its own).
import fs from "node:fs";
import path from "node:path";

export interface Submission {
  /** The folder's name, which names its row and its report. */
  name: string;
  dir: string;
  /** Where the grade runs and what it is told to grade there, or why it cannot be graded. */
  layout: { kind: "clone" | "starter"; cwd: string; target: string } | { kind: "unknown"; problem: string };
}

/** The folders inside `root`, sorted by name, except hidden ones and `skip` (the batch's own output). */
export function findSubmissions(root: string, skip: string[] = []): Submission[] {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !skip.includes(path.join(root, e.name)))
    .map((e) => e.name)
    .sort()
    .map((name) => ({ name, dir: path.join(root, name), layout: layoutOf(root, name) }));
}

/**
 * A clone is graded on its starter/ from inside it (so its replay commands read as the student's
 * own); a starter folder from the submissions folder, by its name.
 */
function layoutOf(root: string, name: string): Submission["layout"] {
  const dir = path.join(root, name);
  if (isDirectory(path.join(dir, "starter"))) return { kind: "clone", cwd: dir, target: "starter" };
  if (fs.existsSync(path.join(dir, "checkpoint.ts"))) return { kind: "starter", cwd: root, target: name };
  return { kind: "unknown", problem: "no starter/ folder and no checkpoint.ts" };
}

/** Whether a clone holds more than its starter/ (and .git): only then are its grader files compared. */
export function holdsMoreThanStarter(dir: string): boolean {
  return fs.readdirSync(dir).some((name) => name !== "starter" && name !== ".git");
}

function isDirectory(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
