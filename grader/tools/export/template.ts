// What the student template repository holds: the files a student needs to do the lab and run
// `npm run grade`, and nothing the instructor keeps private (the reference solution, the buggy
// and hostile fixtures, the grader's own tests and tools). `npm run export-student` writes these
// files; `npm run grade-batch` compares a student's clone against them.
import fs from "node:fs";
import path from "node:path";

export interface TemplateFile {
  /** Relative, with forward slashes: "grader/rubric.json". */
  path: string;
  content: Buffer;
}

/** Copied as they are, when they exist (folders with everything below them). */
const COPIED = ["grader", "lab", "starter", "package-lock.json", ".gitignore", "HANDOUT.md", ".github", ".devcontainer"];

/**
 * Left out of the copied folders. grader/tools holds the instructor's commands (bench and soak
 * need the fixtures and the reference), and ci.yml is the grader's own test suite in CI: it
 * runs `npm test`, which a template without grader/test cannot run.
 */
const LEFT_OUT = ["grader/fixtures", "grader/test", "grader/tools", ".github/workflows/ci.yml", ".github/workflows/regrade.yml"];

/** Never part of a repository's content, wherever they are. */
const NEVER = new Set(["node_modules", ".grade", ".git", ".DS_Store"]);

/** Scripts a student must have. */
const STUDENT_SCRIPTS = ["grade", "typecheck"];

/** Scripts that need what the template leaves out without naming it (`test` runs grader/test). */
const INSTRUCTOR_SCRIPTS = ["test", "test:submissions"];

/** Where the student README's text lives in this repository. */
export const STUDENT_README = "grader/tools/export/README.student.md";

/**
 * What the template is made from, as git pathspecs, for telling whether it differs from the
 * commit: each list is asked on its own, since the left-out grader/tools would hide the student
 * README that lives in it.
 */
export const TEMPLATE_SOURCES: string[][] = [[...COPIED, "package.json", "tsconfig.json", ...LEFT_OUT.map((p) => `:(exclude)${p}`)], [STUDENT_README]];

/** Lists every file of the student template made from the repository at `root`, sorted by path. */
export function templateFiles(root: string): TemplateFile[] {
  const files: TemplateFile[] = [];
  for (const name of COPIED) for (const rel of filesBelow(root, name, LEFT_OUT)) files.push({ path: rel, content: fs.readFileSync(path.join(root, rel)) });
  files.push(
    { path: "package.json", content: json(studentPackage(readJson(root, "package.json"))) },
    { path: "tsconfig.json", content: json(studentTsconfig(readJson(root, "tsconfig.json"))) },
    { path: "README.md", content: fs.readFileSync(path.join(root, STUDENT_README)) },
  );
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The relative paths of the files below `root`/`rel` (or `rel` itself when it is a file), without `leftOut` and what is never content. */
export function filesBelow(root: string, rel: string, leftOut: string[] = []): string[] {
  if (leftOut.includes(rel) || NEVER.has(path.posix.basename(rel))) return [];
  const stat = fs.lstatSync(path.join(root, rel), { throwIfNoEntry: false }); // a link is followed nowhere
  if (!stat) return [];
  if (stat.isFile()) return [rel];
  if (!stat.isDirectory()) return [];
  return fs.readdirSync(path.join(root, rel)).flatMap((name) => filesBelow(root, rel === "." ? name : `${rel}/${name}`, leftOut));
}

/**
 * package.json with the scripts a student can run: those that name no file the template leaves
 * out (the dependencies stay, so package-lock.json still matches).
 */
function studentPackage(pkg: Record<string, unknown>): Record<string, unknown> {
  const scripts = (pkg.scripts ?? {}) as Record<string, string>;
  const missing = STUDENT_SCRIPTS.filter((s) => !(s in scripts));
  if (missing.length > 0) throw new Error(`package.json has no script ${missing.join(", ")}; expected ${STUDENT_SCRIPTS.join(" and ")}`);
  // A script works in the template when every path it names is in it (gradescope/ and
  // classroom50/ are the instructor's, for instance).
  const inTemplate = (p: string) => COPIED.includes(p.split("/")[0]!) && !LEFT_OUT.some((l) => p === l || p.startsWith(`${l}/`));
  const works = ([name, command]: [string, string]) => !INSTRUCTOR_SCRIPTS.includes(name) && command.split(/\s+/).filter((w) => /^[\w.-]+\/[\w./-]*$/.test(w)).every(inTemplate);
  return { ...pkg, scripts: Object.fromEntries(Object.entries(scripts).filter(works)) };
}

/** tsconfig.json whose "include" and "exclude" name only what the template has. */
function studentTsconfig(tsconfig: Record<string, unknown>): Record<string, unknown> {
  const kept = (list: unknown) => (list as string[] | undefined)?.filter((p) => COPIED.includes(p.split("/")[0]!) && !LEFT_OUT.some((l) => p === l || p.startsWith(`${l}/`)));
  const out: Record<string, unknown> = { ...tsconfig, include: kept(tsconfig.include) };
  const exclude = kept(tsconfig.exclude);
  if (exclude && exclude.length > 0) out.exclude = exclude;
  else delete out.exclude;
  return out;
}

function readJson(root: string, name: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, name), "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${name} could not be read as JSON: expected a plain JSON file, got ${(error as Error).message}`);
  }
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value, null, 2) + "\n");
}
