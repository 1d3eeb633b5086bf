// Builds the sandbox host (runtime/main.ts, with everything the child runs) into one plain-JavaScript
// file, so it starts as a bare `node` process.
import { build } from "esbuild";
import path from "node:path";
import { REPO_ROOT } from "../../paths.js";

/** Writes the host bundle into `dir` and returns its path. */
export async function buildHost(dir: string): Promise<string> {
  const outfile = path.join(dir, "host.cjs");
  await build({
    entryPoints: [path.join(REPO_ROOT, "grader/sandbox/runtime/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "silent",
  });
  return outfile;
}
