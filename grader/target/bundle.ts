// Compiles one file of a target folder, with everything it imports, into a single CommonJS
// bundle the sandbox can instantiate many times. Node's built-in modules and the lab module stay
// outside the bundle, so the sandbox can hand the target its own `fs` and the pristine lab.
import { build, type BuildOptions, type Message, type Metafile, type Plugin } from "esbuild";
import { createHash } from "node:crypto";
import { builtinModules } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT, STAND_INS_DIR } from "../paths.js";
import { writeWhole } from "../write-whole.js";
import { LAB_SPECIFIER } from "../sandbox/runtime/target/lab-module.js";
import { STAND_IN_SPECIFIER } from "../sandbox/runtime/target/stand-in-module.js";
import { esmBundleToAsyncBody } from "./esm-to-function.js";

export interface BundleRequest {
  targetDir: string;
  /** The deliverable's file, such as "checkpoint.ts". */
  file: string;
  /**
   * The modules whose files the grader's stand-ins replace (["checkpoint"]): a relative import of
   * `./checkpoint` from the target's files resolves to grader/stand-ins/checkpoint.ts, and only
   * those stand-ins may import the primitives the sandbox serves them (STAND_IN_SPECIFIER).
   */
  standIns?: string[];
  outFile: string;
}

/**
 * `code`: a digest of what the bundle runs, the same for two bundles of the same code wherever
 * their files lie. `read`: the absolute path of every file the build read, the entry first (also
 * when it is missing or does not compile): what the verdict cache keys a deliverable's verdicts by.
 */
export type BundleResult = ({ ok: true; file: string; code: string } | { ok: false; problem: string }) & { read: string[] };

/** Bundles `targetDir/file` to `outFile`, or says in the student's terms why it cannot ("is missing", "does not compile: ..."; whole-file.ts names the file). */
export async function bundleTarget(req: BundleRequest): Promise<BundleResult> {
  const entry = path.join(req.targetDir, req.file);
  const read = new Set([entry]);
  if (!fs.existsSync(entry)) return { ok: false, problem: "is missing", read: [...read] };
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
    plugins: [labModule(), standInsFor(req.targetDir, req.standIns ?? []), notTheGradersFiles(req.targetDir), recordReads(read)],
    metafile: true,
  } satisfies BuildOptions;
  try {
    // The map's sources are relative to the bundle's folder; sourceRoot keeps that folder for a copy
    // of the bundle in another one (a user of its own runs a copy: frames.ts).
    const result = await build({ ...options, format: "cjs", outfile: req.outFile, write: false, sourceRoot: `${path.dirname(req.outFile)}${path.sep}` });
    const text = result.outputFiles[0]!.text;
    // Written whole: the deliverables that run one file (checkpoint.ts) bundle it to one name in two
    // workers at once. The grader's alone: a user of the target's own runs a copy (identity/target-user.ts).
    writeWhole(req.outFile, text, { mode: 0o600 });
    return { ok: true, file: req.outFile, code: codeDigest(text, result.metafile), read: [...read] };
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors ?? [];
    if (!errors.some((e) => /top-level await/i.test(e.text))) {
      return { ok: false, problem: describeBuildError(errors, req.targetDir) ?? String(error), read: [...read] };
    }
  }
  // Top-level await: an ES module bundle, run as the body of an async function.
  try {
    // Not written by esbuild, its map's sources are relative to the working folder.
    const result = await build({ ...options, format: "esm", write: false, external: builtinModules.flatMap((m) => [m, `node:${m}`]), sourceRoot: `${process.cwd()}${path.sep}` });
    const text = esmBundleToAsyncBody(result.outputFiles[0]!.text);
    writeWhole(req.outFile, text, { mode: 0o600 });
    return { ok: true, file: req.outFile, code: codeDigest(text, result.metafile), read: [...read] };
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors ?? [];
    return { ok: false, problem: describeBuildError(errors, req.targetDir) ?? String(error), read: [...read] };
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

/**
 * Notes every file the build loads, a build that fails included (esbuild's metafile comes only
 * with a success): returning nothing lets esbuild load the file as it would have.
 */
function recordReads(read: Set<string>): Plugin {
  return { name: "record-reads", setup: (b) => b.onLoad({ filter: /.*/ }, (args) => void (args.namespace === "file" && read.add(args.path))) };
}

/** The lab module is provided by the sandbox at run time. */
function labModule(): Plugin {
  const filter = new RegExp(`^${LAB_SPECIFIER.replace(/[/@]/g, "\\$&")}$`);
  return { name: "lab", setup: (b) => b.onResolve({ filter }, (args) => ({ path: args.path, external: true })) };
}

/** The grader's own folders, whose files a target may not compile into its code: the grader (its stand-ins, its checks' cases) and the reference. */
const GRADERS_OWN = [path.join(REPO_ROOT, "grader"), path.join(REPO_ROOT, "solution")];

/**
 * Refuses a relative or absolute import of a file of the grader's own (GRADERS_OWN) from outside
 * the target folder: a check's expected answers, or the reference a grade may sit beside, are not
 * the target's code. A target imports the lab (@lab/task), Node's modules, packages and its own
 * files; the grader's stand-ins come in through `standInsFor`, not by a path.
 */
function notTheGradersFiles(targetDir: string): Plugin {
  const inside = (dir: string, file: string) => file === dir || file.startsWith(dir + path.sep);
  return {
    name: "not-the-graders-files",
    setup(b) {
      b.onResolve({ filter: /^(\.\.?\/|\/)/ }, (args) => {
        const wanted = path.resolve(args.resolveDir, args.path);
        if (inside(path.resolve(targetDir), wanted) || inside(STAND_INS_DIR, args.importer)) return undefined;
        const own = GRADERS_OWN.find((dir) => inside(dir, wanted));
        if (!own) return undefined;
        return { errors: [{ text: `${JSON.stringify(args.path)} is the grader's own file (${path.relative(REPO_ROOT, wanted)}): your files may import the lab (@lab/task), Node's modules, packages and each other, not the grader's files` }] };
      });
    },
  };
}

/**
 * Puts the stand-ins of `names` in place of the target's files of those names: a relative import
 * of `./name` (any extension) made in the target folder resolves to the stand-in. The primitives
 * that make a stand-in correct are there for those stand-ins alone: a student's file that imports
 * them, or a stand-in the variant does not put in place (a student's runner.ts that imports the
 * stand-in runner while Phase 2 grades it), does not compile.
 */
function standInsFor(targetDir: string, names: string[]): Plugin {
  const standIn = (name: string) => path.join(STAND_INS_DIR, `${name}.ts`);
  const filter = new RegExp(`^${STAND_IN_SPECIFIER.replace(/[/@]/g, "\\$&")}$`);
  return {
    name: "stand-ins",
    setup(b) {
      b.onResolve({ filter }, (args) => {
        const importer = fs.realpathSync(args.importer);
        if (names.some((name) => importer === fs.realpathSync(standIn(name)))) return { path: args.path, external: true };
        return { errors: [{ text: `${STAND_IN_SPECIFIER} is the grader's own, for its stand-ins in place of your files` }] };
      });
      if (names.length === 0) return;
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const wanted = path.resolve(args.resolveDir, args.path).replace(/\.(ts|js|mjs|cjs|mts|cts)$/, "");
        for (const name of names) if (wanted === path.join(targetDir, name)) return { path: standIn(name) };
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
