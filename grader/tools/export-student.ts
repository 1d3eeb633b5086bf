// `npm run export-student -- <dir>`: writes the student template repository into <dir> (a new
// or empty folder): the grader, the lab, the starter and the handout, without the reference
// solution or anything else the instructor keeps private. Refuses to write a tree that holds a
// line of the reference solution.
import fs from "node:fs";
import path from "node:path";
import { readWords } from "../cli/command-line.js";
import { REPO_ROOT } from "../paths.js";
import { distinctiveSolutionLines, findSolutionLines } from "./export/solution-lines.js";
import { templateFiles } from "./export/template.js";

const USAGE = `Usage: npm run export-student -- <dir>

Writes the student template repository into <dir>, a new or empty folder outside this repository.`;

/** Writes the template; returns the exit code (0 written, 1 refused because solution code was found, 2 bad arguments). */
function main(argv: string[]): number {
  // --help or -h anywhere asks for the usage; any other option is a word that is not a folder.
  const words = readWords(argv, { help: { type: "boolean", short: "h" } });
  if (words.some((w) => w.kind === "option")) return console.log(USAGE), 0;
  if (words.length !== 1 || words[0]!.kind !== "positional") return fail(`expected one folder, got ${words.length === 0 ? "none" : words.map((w) => JSON.stringify(w.arg)).join(" ")}\n\n${USAGE}`);
  const shown = words[0]!.arg;
  const dir = path.resolve(shown);
  const problem = unusableFolder(dir);
  if (problem) return fail(`${JSON.stringify(shown)} ${problem}`);
  if (!fs.existsSync(path.join(REPO_ROOT, "solution"))) return fail("expected the instructor's repository, with its solution/ folder; this one has none (is it a student template already?)");
  const files = templateFiles(REPO_ROOT);
  const hits = findSolutionLines(files, distinctiveSolutionLines(REPO_ROOT));
  if (hits.length > 0) {
    console.error(`export-student: nothing written: the template would hold code of the reference solution:\n  ${hits.join("\n  ")}`);
    return 1;
  }
  for (const file of files) {
    const to = path.join(dir, file.path);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, file.content);
  }
  console.log(`Wrote the student template to ${shown}: ${files.length} files, no solution code.`);
  console.log(`Check it with: cd ${shown} && npm ci && npm run grade`);
  return 0;
}

/** Why `dir` cannot receive the template, or null when it is missing or an empty folder outside the repository. */
function unusableFolder(dir: string): string | null {
  const inside = path.relative(REPO_ROOT, dir);
  if (!inside.startsWith("..") && !path.isAbsolute(inside)) return "is inside this repository; expected a folder outside it";
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat) return null;
  if (!stat.isDirectory()) return "is a file; expected a new or empty folder";
  const entries = fs.readdirSync(dir);
  return entries.length === 0 ? null : `is not empty (it holds ${entries.length} entr${entries.length === 1 ? "y" : "ies"}); expected a new or empty folder`;
}

function fail(message: string): number {
  console.error(`export-student: ${message}`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
