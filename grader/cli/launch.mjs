// `npm run grade` starts here: compiles the grader's command line (TypeScript) into one file
// with esbuild, then runs it with plain Node, which loads vitest far faster than a TypeScript loader.
import { build } from "esbuild";
import { renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { GRADER_BUILD } from "./grader-build.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// One folder below the repository, like grader/, so the compiled paths.ts finds the repository.
const outfile = path.join(repo, ".grade", "cli.mjs");
// Several grades may start at once: each writes its own file, then renames it into place.
const own = `${outfile}.${process.pid}.tmp`;
await build({
  entryPoints: [path.join(repo, "grader/cli/grade.ts")],
  outfile: own,
  ...GRADER_BUILD,
});
renameSync(own, outfile);
await import(pathToFileURL(outfile).href);
