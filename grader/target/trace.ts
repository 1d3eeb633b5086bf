// What a grade read of the target, as the verdict cache records it (grader/cli/verdict-cache.ts):
// each input named by a key, with its digest when it was read. A cached verdict is taken only
// while every input it recorded still has the digest it had, as a build system's trace is.
//
// Keys: "file:<path>" is a file's content ("absent" when there is none); "names:<folder>" the
// names in a folder that an import could resolve to (another file an import could have found
// first); "tree:" every name in the target folder; "stand-in:<file>" that a build compiled the
// grader's stand-in for that file (its content is in the key already, with the whole grader's:
// what it tells is that the deliverable's verdicts read those of the file's own deliverable).
// A path inside the target folder is relative to it; outside it, absolute.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { STAND_INS_DIR } from "../paths.js";

/** The digest of a stand-in's input: its content is the grader's, in the key already. */
const STAND_IN = "in the grader";

/** Each input's key and its digest. */
export type Trace = Record<string, string>;

/** Files the compiler reads beside the code, in each folder from a source file's up to the root. */
const CONFIG_FILES = ["tsconfig.json", "jsconfig.json", "package.json"];

/** Names an import may resolve to: files of these extensions, and folders (index files, packages). */
const RESOLVABLE = /\.(tsx?|mts|cts|jsx?|mjs|cjs|json|node)$/;

/** Folders of the target that no grade reads as its code: version control and installed packages (a package compiled in is recorded file by file). */
const NOT_CODE = new Set([".git", "node_modules"]);

/**
 * Code that can name its own folder (import.meta, __dirname, a require or an import of a computed
 * name, the folder's path) may read any file of it while it runs, which no build records: the
 * whole folder is then its input (process.argv[1] is the entry file; its arguments from the
 * third on are not). Comments and strings count too: a false alarm costs only time.
 */
const NAMES_ITS_FOLDER = /\bimport\.meta\b|\b__dirname\b|\b__filename\b|\brequire\s*\.\s*(resolve|main)\b|\bcreateRequire\b|\brequire\s*\(\s*[^'"`\s)]|\bimport\s*\(\s*[^'"`\s)]|\bINIT_CWD\b|\bPWD\b|\bprocess\s*\.\s*argv\b(?!\s*(\.\s*slice\s*\(\s*[2-9]|\[\s*[2-9]))/;

/** The trace of builds that read `read` (absolute paths, bundleTarget's `read`) from `targetDir`. */
export function traceOfBuild(targetDir: string, read: string[]): Trace {
  const keys = new Set<string>(["names:."]);
  const folders = new Set<string>();
  let namesFolder = false;
  for (const file of read) {
    if (inside(STAND_INS_DIR, file)) {
      keys.add(`stand-in:${path.basename(file)}`);
      continue;
    }
    keys.add(`file:${named(targetDir, file)}`);
    folders.add(path.dirname(file));
    if (!namesFolder && (inside(targetDir, file) || !inside(path.dirname(STAND_INS_DIR), file))) namesFolder = namesItsFolder(file, targetDir);
  }
  for (const folder of folders) {
    if (inside(targetDir, folder)) keys.add(`names:${named(targetDir, folder)}`);
    for (let dir = folder; ; dir = path.dirname(dir)) {
      for (const name of CONFIG_FILES) keys.add(`file:${named(targetDir, path.join(dir, name))}`);
      if (dir === path.dirname(dir)) break;
    }
  }
  if (namesFolder) {
    keys.add("tree:");
    for (const file of filesOf(targetDir)) keys.add(`file:${named(targetDir, file)}`);
  }
  return Object.fromEntries([...keys].sort().map((key) => [key, digestOf(targetDir, key)]));
}

/** Whether every input of `trace` still has its digest in `targetDir`. */
export function stillTrue(targetDir: string, trace: Trace): boolean {
  return Object.entries(trace).every(([key, digest]) => digestOf(targetDir, key) === digest);
}

/** Two traces as one; a key in both with two digests (a file that changed during the grade) makes the union unusable: null. */
export function union(traces: Trace[]): Trace | null {
  const out: Trace = {};
  for (const trace of traces) {
    for (const [key, digest] of Object.entries(trace)) {
      if (key in out && out[key] !== digest) return null;
      out[key] = digest;
    }
  }
  return out;
}

/** The digest an input's key names, as it is now. */
export function digestOf(targetDir: string, key: string): string {
  const colon = key.indexOf(":");
  const kind = key.slice(0, colon);
  const where = path.resolve(targetDir, key.slice(colon + 1));
  const hash = createHash("sha256");
  try {
    if (kind === "file") return hash.update(fs.readFileSync(where)).digest("hex");
    if (kind === "names") {
      const names = fs.readdirSync(where, { withFileTypes: true }).filter((e) => e.isDirectory() || RESOLVABLE.test(e.name) || CONFIG_FILES.includes(e.name));
      return hash.update(names.map((e) => e.name).sort().join("\0")).digest("hex");
    }
    if (kind === "stand-in") return STAND_IN;
    if (kind === "tree") return hash.update(filesOf(targetDir).map((f) => path.relative(targetDir, f)).join("\0")).digest("hex");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR" ? "absent" : "unreadable";
  }
  return "unknown";
}

/** The files of the target folder, outside NOT_CODE, sorted. */
function filesOf(targetDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_CODE.has(entry.name)) walk(full);
      } else out.push(full);
    }
  };
  walk(targetDir);
  return out;
}

function namesItsFolder(file: string, targetDir: string): boolean {
  try {
    const text = fs.readFileSync(file, "utf8");
    return NAMES_ITS_FOLDER.test(text) || text.includes(targetDir);
  } catch {
    return false;
  }
}

/** A path inside the target folder relative to it, else absolute. */
function named(targetDir: string, file: string): string {
  return inside(targetDir, file) ? path.relative(targetDir, file) || "." : file;
}

function inside(dir: string, file: string): boolean {
  return file === dir || file.startsWith(dir + path.sep);
}

/**
 * The folder of a grade's scratch where its workers leave what each build read (`inputs`), for the
 * grade's own process to key the cache by once the checks end: a check's verdict travels through
 * vitest, its builds' reads through these files.
 */
export function inputsFolder(work: string): string {
  return path.join(work, "inputs");
}

/** Leaves `trace` in the grade's scratch under `name` ("runner+checkpoint", "stretch-git.comparison"); a name may be written by several workers. */
export function leaveTrace(work: string, name: string, trace: Trace): void {
  const dir = inputsFolder(work);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${name}.${process.pid}.${++written}.json`);
  fs.writeFileSync(file, JSON.stringify(trace), { mode: 0o600 });
}
let written = 0;

/** Every trace left under `name` in the grade's scratch, as one; null when there is none, or two disagree. */
export function tracesLeft(work: string, name: string): Trace | null {
  let names: string[];
  try {
    names = fs.readdirSync(inputsFolder(work)).filter((n) => n.startsWith(`${name}.`) && /^\d+\.\d+\.json$/.test(n.slice(name.length + 1)));
  } catch {
    return null;
  }
  if (names.length === 0) return null;
  try {
    return union(names.map((n) => JSON.parse(fs.readFileSync(path.join(inputsFolder(work), n), "utf8")) as Trace));
  } catch {
    return null;
  }
}

/** The modules whose grader's stand-ins a build of `trace` compiled ("runner"). */
export function standInsCompiled(trace: Trace): string[] {
  return Object.keys(trace).filter((k) => k.startsWith("stand-in:")).map((k) => k.slice("stand-in:".length).replace(/\.ts$/, ""));
}

/** The name a build of `main` with the `earlier` modules leaves its trace under. */
export function buildName(main: string, earlier: string[] = []): string {
  return [main, ...earlier].join("+");
}
