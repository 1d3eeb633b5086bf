// Helpers for the batch tests: a student template's files, reading a CSV gradebook back, and
// finding processes left behind.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../paths.js";
import { strayProcesses } from "../../sandbox/identity/ids.js";
import { csvRows } from "../../tools/batch/csv-rows.js";
import { templateFiles } from "../../tools/export/template.js";

/** Writes the student template's files (as export-student would) into `dir`. */
export function writeTemplate(dir: string): void {
  for (const f of templateFiles(REPO_ROOT)) {
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), f.content);
  }
}

/** A CSV gradebook's rows of cells, read as the roster map is (tools/batch/csv-rows.ts). */
export function parseCsv(text: string): string[][] {
  return csvRows(text).map((row) => row.cells);
}

/** The ids of live processes whose environment holds BATCH_TEST_MARK=`mark`, or that run as a sandbox user no live grade holds (Linux; elsewhere none), after a moment to die. */
export async function leftRunning(mark: string): Promise<number[]> {
  if (process.platform !== "linux") return [];
  let found: number[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    found = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`BATCH_TEST_MARK=${mark}`);
      } catch {
        return false;
      }
    });
    // Target processes run with an environment of their own (as users of their own, when root): those no live grade holds.
    found.push(...strayProcesses().map((p) => p.pid));
    if (found.length === 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return found;
}
