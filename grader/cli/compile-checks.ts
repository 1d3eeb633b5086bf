// Compiles the checks of the deliverables a grade runs (grader/checks/<id>/, through the entry
// deliverable-entry.ts makes for each) into one
// JavaScript file each, in .grade/ beside the compiled command line: vitest's workers then load one
// file per deliverable instead of transforming the grader's TypeScript files one import at a time.
// The file vitest is given (<id>.grade.mjs) only imports the compiled checks (<id>.checks.mjs),
// which vitest leaves to Node (CHECKS_BUNDLE): it is plain JavaScript already, and transforming
// 90 KB of it again cost each grade about 0.1 s.
// Only what is graded is compiled: a grade whose verdicts all come from the cache compiles nothing.
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import { GRADER_BUILD } from "./grader-build.mjs";
import { deliverableEntries, deliverableEntry } from "./deliverable-entry.js";

/** The compiled checks, which vitest's workers import as Node does, without transforming them. */
export const CHECKS_BUNDLE = /\/\.grade\/[^/]+\.checks\.mjs$/;

/** The compiled checks of each deliverable in `ids`, as paths relative to the repository (vitest's filters). */
export async function compileChecks(ids: string[]): Promise<string[]> {
  // One folder below the repository, like grader/, so the compiled paths.ts finds the repository.
  const out = path.join(REPO_ROOT, ".grade");
  // Several grades may compile at once: each into a folder of its own, then each file renamed into place.
  const own = path.join(out, `checks-${process.pid}`);
  try {
    await build({
      entryPoints: Object.fromEntries(ids.map((id) => [`${id}.checks`, deliverableEntry(id)])),
      plugins: [deliverableEntries],
      outdir: own,
      outExtension: { ".js": ".mjs" },
      ...GRADER_BUILD,
    });
    for (const id of ids) fs.writeFileSync(path.join(own, `${id}.grade.mjs`), `import "./${id}.checks.mjs";\n`);
    for (const name of fs.readdirSync(own)) fs.renameSync(path.join(own, name), path.join(out, name));
  } finally {
    fs.rmSync(own, { recursive: true, force: true });
  }
  return ids.map((id) => `.grade/${id}.grade.mjs`);
}
