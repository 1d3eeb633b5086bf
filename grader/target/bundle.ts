// Compiles one file of a target folder, with everything it imports, into a single CommonJS
// bundle the sandbox can instantiate many times. Node's built-in modules and the lab module stay
// outside the bundle, so the sandbox can hand the target its own `fs` and the pristine lab.
import { build, type BuildOptions, type Message, type Metafile, type Plugin } from "esbuild";
import { createHash } from "node:crypto";
import { builtinModules } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { LAB_SPECIFIER, REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { esmBundleToAsyncBody } from "./esm-to-function.js";

export interface BundleRequest {
  targetDir: string;
  /** The deliverable's file, such as "checkpoint.ts". */
  file: string;
  /**
   * Which file a relative import of a module name resolves to, from the target's files and the
   * reference's alike: { checkpoint: "<reference>/checkpoint.ts" } swaps in the reference's file.
   */
  replace?: Record<string, string>;
  outFile: string;
}

/** `code`: a digest of what the bundle runs, the same for two bundles of the same code wherever their files lie. */
export type BundleResult = { ok: true; file: string; code: string } | { ok: false; problem: string };

/** Bundles `targetDir/file` to `outFile`, or says in the student's terms why it cannot. */
export async function bundleTarget(req: BundleRequest): Promise<BundleResult> {
  const entry = path.join(req.targetDir, req.file);
  if (!fs.existsSync(entry)) return { ok: false, problem: `${req.file} is missing from the target folder` };
  const options = {
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: "node20",
    logLevel: "silent",
    sourcemap: "inline",
    sourcesContent: false,
    nodePaths: [path.join(REPO_ROOT, "node_modules")],
    // A CommonJS bundle has no import.meta: the sandbox passes the entry file's own values.
    define: { "import.meta.url": "__entryUrl", "import.meta.filename": "__entryFile", "import.meta.dirname": "__entryDir" },
    plugins: [labModule(), replaceFiles([req.targetDir, SOLUTION_DIR], req.replace ?? {})],
    metafile: true,
  } satisfies BuildOptions;
  try {
    const result = await build({ ...options, format: "cjs", outfile: req.outFile });
    return { ok: true, file: req.outFile, code: codeDigest(fs.readFileSync(req.outFile, "utf8"), result.metafile) };
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors ?? [];
    if (!errors.some((e) => /top-level await/i.test(e.text))) {
      return { ok: false, problem: describeBuildError(errors, req.targetDir) ?? String(error) };
    }
  }
  // Top-level await: an ES module bundle, run as the body of an async function.
  try {
    const result = await build({ ...options, format: "esm", write: false, external: builtinModules.flatMap((m) => [m, `node:${m}`]) });
    const text = esmBundleToAsyncBody(result.outputFiles[0]!.text);
    fs.writeFileSync(req.outFile, text);
    return { ok: true, file: req.outFile, code: codeDigest(text, result.metafile) };
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors ?? [];
    return { ok: false, problem: describeBuildError(errors, req.targetDir) ?? String(error) };
  }
}

/**
 * A digest of the bundle without what names where its files lie: the comment esbuild writes above
 * each input file's code (the input's path) and the source map (which maps to those paths). Two
 * bundles with the same digest run the same code; only the file names in a stack trace differ.
 */
function codeDigest(text: string, metafile: Metafile): string {
  const inputs = new Set(Object.keys(metafile.inputs).map((input) => `// ${input}`));
  const code = text.split("\n").filter((line) => !inputs.has(line) && !line.startsWith("//# sourceMappingURL="));
  return createHash("sha256").update(code.join("\n")).digest("hex");
}

/** The lab module is provided by the sandbox at run time. */
function labModule(): Plugin {
  const filter = new RegExp(`^${LAB_SPECIFIER.replace(/[/@]/g, "\\$&")}$`);
  return { name: "lab", setup: (b) => b.onResolve({ filter }, (args) => ({ path: args.path, external: true })) };
}

/** Redirects a relative import of `./name` (any extension) made in one of `dirs` to another file. */
function replaceFiles(dirs: string[], replace: Record<string, string>): Plugin {
  return {
    name: "replace",
    setup(b) {
      if (Object.keys(replace).length === 0) return;
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const wanted = path.resolve(args.resolveDir, args.path).replace(/\.(ts|js|mjs|cjs|mts|cts)$/, "");
        for (const [name, file] of Object.entries(replace)) {
          if (dirs.some((dir) => wanted === path.join(dir, name))) return { path: file };
        }
        return undefined;
      });
    },
  };
}

function describeBuildError(errors: Message[], targetDir: string): string | undefined {
  const first = errors[0];
  if (!first) return undefined;
  const where = first.location
    ? `${path.relative(targetDir, path.resolve(first.location.file)) || first.location.file}:${first.location.line}:${first.location.column + 1}: `
    : "";
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? "s" : ""})` : "";
  return `does not compile: ${where}${first.text}${more}`;
}
