// Finds reference-solution code in a tree: every distinctive line of solution/*.ts, compared with
// white space folded. Lines the student is given anyway (the starter's signatures, the handout's
// contract) are not distinctive and are not looked for.
import fs from "node:fs";
import path from "node:path";

/** Shorter lines (a closing brace, `return state;`) are too common to mean anything. */
const MIN_LENGTH = 31;

export interface SolutionLine {
  /** The line as compared: trimmed, runs of white space folded to one space. */
  text: string;
  /** The solution file it comes from: "runner.ts". */
  file: string;
}

/** A line trimmed, with runs of white space folded to one space. */
export function foldSpace(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

/** The distinctive lines of `root`/solution/*.ts: long enough, and in neither starter/*.ts nor HANDOUT.md. */
export function distinctiveSolutionLines(root: string): SolutionLine[] {
  const given = new Set<string>();
  const starter = path.join(root, "starter");
  for (const file of fs.readdirSync(starter).filter((f) => f.endsWith(".ts"))) for (const line of linesOf(path.join(starter, file))) given.add(line);
  for (const line of linesOf(path.join(root, "HANDOUT.md"))) given.add(line);
  const solution = path.join(root, "solution");
  const found = new Map<string, SolutionLine>();
  for (const file of fs.readdirSync(solution).filter((f) => f.endsWith(".ts")).sort()) {
    for (const text of linesOf(path.join(solution, file))) if (text.length >= MIN_LENGTH && !given.has(text) && !found.has(text)) found.set(text, { text, file });
  }
  return [...found.values()];
}

/** Where in `files` (relative path and content) a line of `lines` stands: one entry per hit, "path:line". */
export function findSolutionLines(files: { path: string; content: Buffer }[], lines: SolutionLine[]): string[] {
  const wanted = new Map(lines.map((l) => [l.text, l]));
  const hits: string[] = [];
  for (const file of files) {
    if (file.content.includes(0)) continue; // binary: holds no source line
    file.content.toString("utf8").split("\n").forEach((line, i) => {
      const hit = wanted.get(foldSpace(line));
      if (hit) hits.push(`${file.path}:${i + 1} (a line of solution/${hit.file})`);
    });
  }
  return hits;
}

function linesOf(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").map(foldSpace) : [];
}
