// `npm run grade` starts here: compiles the grader's command line and each deliverable's checks
// (TypeScript) into plain JavaScript with esbuild, one file each, then runs the command line with
// plain Node. Node loads vitest far faster than a TypeScript loader would, and vitest's workers
// load one file per deliverable instead of transforming the grader's files one by one.
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// One folder below the repository, like grader/, so the compiled paths.ts finds the repository.
const out = path.join(repo, ".grade");
// Several grades may start at once: each compiles into a folder of its own, then renames each file into place.
const own = path.join(out, `build-${process.pid}`);
const checks = fs.readdirSync(path.join(repo, "grader/checks")).filter((name) => name.endsWith(".grade.ts"));
try {
  await build({
    entryPoints: {
      cli: path.join(repo, "grader/cli/grade.ts"),
      ...Object.fromEntries(checks.map((name) => [name.replace(/\.ts$/, ""), path.join(repo, "grader/checks", name)])),
    },
    outdir: own,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  for (const name of fs.readdirSync(own)) fs.renameSync(path.join(own, name), path.join(out, name));
} finally {
  fs.rmSync(own, { recursive: true, force: true });
}
await import(pathToFileURL(path.join(out, "cli.mjs")).href);
