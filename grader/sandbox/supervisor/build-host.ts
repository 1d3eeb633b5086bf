// Builds the sandbox host (runtime/main.ts, with everything the child runs) into one plain-JavaScript
// file, so it starts as a bare `node` process.
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../paths.js";

/**
 * Writes the host bundle into `dir` (made when it is not there) and returns its path. The bundle
 * is written from this process, not by esbuild's own: a grade stopped while it builds removes
 * `dir`, and a write still under way in another process would make the folder again once it is gone.
 */
export async function buildHost(dir: string): Promise<string> {
  const outfile = path.join(dir, "host.cjs");
  const built = await build({
    entryPoints: [path.join(REPO_ROOT, "grader/sandbox/runtime/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "silent",
    write: false,
  });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(outfile, built.outputFiles[0]!.contents);
  return outfile;
}
