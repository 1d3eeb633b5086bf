// Which of the grader's files a student's clone changed. In their own repository students
// control the grader and the workflow that grades on push, so the gradebook flags a clone whose
// copies differ from the student template this repository exports. Only the template counts as
// pristine: a clone has no solution/, fixtures or grader tests, and their absence is no change.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BUILD_FILE } from "../../report/graded-with.js";
import { filesBelow, templateFiles } from "../export/template.js";

/** The files and folders compared; a folder stands for every file below it. */
const COMPARED = ["grader/", "lab/", ".github/workflows/", "package.json", "package-lock.json", "tsconfig.json", "vitest.config.ts"];

/** Relative path to digest of every compared file of the student template made from `root`. */
export function pristineDigests(root: string): Map<string, string> {
  return new Map(templateFiles(root).filter((f) => isCompared(f.path)).map((f) => [f.path, digest(f.content)]));
}

/**
 * The compared files of the clone at `dir` that differ from `pristine`, sorted: a changed file by
 * its path, "<path> (added)" for one the template lacks, "<path> (missing)" for one the clone
 * lacks ("grader/ (missing)" when the clone lacks every file of a compared folder).
 */
export function modifiedFiles(dir: string, pristine: Map<string, string>): string[] {
  const own = new Map(filesBelow(dir, ".").filter(isCompared).map((f) => [f, digest(fs.readFileSync(path.join(dir, f)))]));
  const out: string[] = [];
  for (const [file, sum] of own) {
    if (!pristine.has(file)) out.push(`${file} (added)`);
    else if (pristine.get(file) !== sum) out.push(file);
  }
  const missing = [...pristine.keys()].filter((f) => !own.has(f));
  for (const folder of COMPARED.filter((c) => c.endsWith("/"))) {
    const under = [...pristine.keys()].filter((f) => f.startsWith(folder));
    if (under.length > 0 && under.every((f) => !own.has(f))) out.push(`${folder} (missing)`);
    else out.push(...missing.filter((f) => f.startsWith(folder)).map((f) => `${f} (missing)`));
  }
  out.push(...missing.filter((f) => !f.includes("/")).map((f) => `${f} (missing)`));
  return out.sort();
}

function isCompared(file: string): boolean {
  // BUILD.json names the commit the template was exported from: it differs from one export to the next and grades nothing.
  if (file === BUILD_FILE) return false;
  return COMPARED.some((c) => (c.endsWith("/") ? file.startsWith(c) : file === c));
}

/** sha256 of the content with CRLF line ends read as LF: a clone checked out on Windows is not a change. */
function digest(content: Buffer): string {
  const text = content.includes(0) ? content : Buffer.from(content.toString("latin1").replace(/\r\n/g, "\n"), "latin1");
  return createHash("sha256").update(text).digest("hex");
}
