// A repository's history read straight from its files, without starting git: what `git log
// --first-parent --format=%s HEAD` and `git ls-tree -r HEAD` would say, for a repository as a
// runner's `git init`, `git add` and `git commit` leave it (refs in files, objects loose, one
// SHA-1 object format). A grade inspects a repository after every git-backed run, and starting
// git costs more than the whole read. Anything else (packed objects, packed refs, a `.git` file,
// replaced or grafted commits, a shallow clone, another object format, an object that does not
// parse) gives null, and the grader asks git itself.
import fs from "node:fs";
import path from "node:path";
import { inflateSync } from "node:zlib";

/** A file of HEAD's tree: its blob's name and its path from the top of the work tree. */
export interface TreeFile {
  blob: string;
  file: string;
}

/** What the repository's files say: the subjects of the commits HEAD reaches by first parents, oldest first, and HEAD's files. */
export interface PlainHistory {
  subjects: string[];
  files: TreeFile[];
}

/** Files whose presence changes what git reports, beyond what is read here. */
const OTHER_WAYS = ["packed-refs", "shallow", "info/grafts", "objects/info/alternates", "commondir", "refs/replace"];
/** The most commits and tree levels read before git is asked instead (a runner makes tens). */
const MOST_COMMITS = 10_000;
const MOST_DEPTH = 64;
const SHA1 = /^[0-9a-f]{40}$/;

/** The history of the repository whose `.git` folder is directly in `top`, or null when git must be asked. */
export function readPlainHistory(top: string): PlainHistory | null {
  const gitDir = path.join(top, ".git");
  try {
    if (!fs.lstatSync(gitDir).isDirectory()) return null;
    if (OTHER_WAYS.some((p) => fs.existsSync(path.join(gitDir, p)))) return null;
    if (/^\s*\[extensions\]|objectformat|worktree/im.test(fs.readFileSync(path.join(gitDir, "config"), "utf8"))) return null;
    const head = resolveHead(gitDir);
    if (!head) return null;
    const subjects: string[] = [];
    let tree: string | null = null;
    for (let id: string | undefined = head, n = 0; id !== undefined; n++) {
      if (n >= MOST_COMMITS) return null;
      const commit = readCommit(gitDir, id);
      if (!commit) return null;
      tree ??= commit.tree;
      subjects.push(commit.subject);
      id = commit.firstParent;
    }
    const files = readTree(gitDir, tree!, "", 0);
    if (!files) return null;
    // git log prints one subject a line; the grader keeps the lines that are not empty.
    return { subjects: subjects.reverse().filter((s) => s !== ""), files };
  } catch {
    return null;
  }
}

/** The commit HEAD names, following symbolic refs held in files; null when it is not a plain name. */
function resolveHead(gitDir: string): string | null {
  let text = fs.readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
  for (let hops = 0; hops < 5; hops++) {
    if (SHA1.test(text)) return text;
    const ref = /^ref: (refs\/[^\s]+)$/.exec(text)?.[1];
    if (!ref || ref.split("/").includes("..")) return null;
    const file = path.join(gitDir, ref);
    // An unborn branch: git says the repository has no commit, in its own words.
    if (!fs.existsSync(file)) return null;
    text = fs.readFileSync(file, "utf8").trim();
  }
  return null;
}

/** An object's kind and content, when it is a loose object whose header says what it holds. */
function readObject(gitDir: string, id: string): { kind: string; body: Buffer } | null {
  if (!SHA1.test(id)) return null;
  const file = path.join(gitDir, "objects", id.slice(0, 2), id.slice(2));
  if (!fs.existsSync(file)) return null;
  const raw = inflateSync(fs.readFileSync(file));
  const nul = raw.indexOf(0);
  const header = /^(commit|tree|blob|tag) (\d+)$/.exec(raw.subarray(0, nul).toString("latin1"));
  if (nul < 0 || !header || Number(header[2]) !== raw.length - nul - 1) return null;
  return { kind: header[1]!, body: raw.subarray(nul + 1) };
}

/** A commit's tree, first parent and subject as `%s` prints it (the first paragraph, its lines joined by spaces). */
function readCommit(gitDir: string, id: string): { tree: string; firstParent?: string; subject: string } | null {
  const object = readObject(gitDir, id);
  if (object?.kind !== "commit") return null;
  const text = object.body.toString("utf8");
  // A message in another encoding is re-encoded by git: that is git's to do.
  if (text.includes("\uFFFD")) return null;
  const end = text.indexOf("\n\n");
  const headers = (end < 0 ? text : text.slice(0, end)).split("\n");
  if (headers.some((h) => h.startsWith("encoding "))) return null;
  const tree = headers[0]?.startsWith("tree ") ? headers[0].slice(5) : null;
  if (!tree || !SHA1.test(tree)) return null;
  const firstParent = headers.find((h) => h.startsWith("parent "))?.slice(7);
  if (firstParent !== undefined && !SHA1.test(firstParent)) return null;
  return { tree, firstParent, subject: end < 0 ? "" : subjectOf(text.slice(end + 2)) };
}

/**
 * Git's subject: blank lines skipped, then each line up to the next blank one, its trailing white
 * space cut (git's white space: space, tab, carriage return), joined by spaces.
 */
function subjectOf(message: string): string {
  const lines = message.split("\n");
  // A message's last line ends with "\n": the piece after it is no line.
  if (lines.at(-1) === "") lines.pop();
  const isBlank = (line: string) => /^[ \t\r]*$/.test(line);
  let i = 0;
  while (i < lines.length && isBlank(lines[i]!)) i++;
  const out: string[] = [];
  for (; i < lines.length && !isBlank(lines[i]!); i++) out.push(lines[i]!.replace(/[ \t\r]+$/, ""));
  return out.join(" ");
}

/** The files of a tree and the trees below it (submodules left out, as `ls-tree -r` shows them as commits). */
function readTree(gitDir: string, id: string, prefix: string, depth: number): TreeFile[] | null {
  if (depth > MOST_DEPTH) return null;
  const object = readObject(gitDir, id);
  if (object?.kind !== "tree") return null;
  const body = object.body;
  const files: TreeFile[] = [];
  for (let at = 0; at < body.length; ) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > body.length) return null;
    const mode = body.subarray(at, space).toString("latin1");
    const name = body.subarray(space + 1, nul).toString("utf8");
    if (name.includes("\uFFFD")) return null;
    const child = body.subarray(nul + 1, nul + 21).toString("hex");
    at = nul + 21;
    if (mode === "40000") {
      const below = readTree(gitDir, child, `${prefix}${name}/`, depth + 1);
      if (!below) return null;
      files.push(...below);
    } else if (mode === "100644" || mode === "100755" || mode === "120000") files.push({ blob: child, file: prefix + name });
    else if (mode !== "160000") return null;
  }
  return files;
}
