// Compiles the files a deliverable runs, once per grade, before its checks start.
import { createHash } from "node:crypto";
import path from "node:path";
import { bundleTarget } from "../target/bundle.js";
import type { GradeConfig } from "./config.js";

export interface PreparedTarget {
  /** Bundle file per module name ("checkpoint" -> .../checkpoint-1a2b.cjs). */
  bundles: Record<string, string>;
  /** Why the target cannot be graded for this deliverable, in the student's words. */
  problem?: string;
}

/** Bundles `files` (module name -> file in the target, e.g. checkpoint -> checkpoint.ts). */
export async function prepareTarget(config: GradeConfig, files: Record<string, string>): Promise<PreparedTarget> {
  const bundles: Record<string, string> = {};
  for (const [name, file] of Object.entries(files)) {
    const key = createHash("sha256").update(`${config.targetDir}:${file}`).digest("hex").slice(0, 10);
    const result = await bundleTarget({ targetDir: config.targetDir, file, outFile: path.join(config.work, `${name}-${key}.cjs`) });
    if (!result.ok) return { bundles, problem: result.problem.startsWith(file) ? result.problem : `${file} ${result.problem}` };
    bundles[name] = result.file;
  }
  return { bundles };
}
