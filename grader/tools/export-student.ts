// `npm run export-student -- <dir>`: writes the student template repository into <dir> (a new
// or empty folder): the grader, the lab, the starter and the handout, without the reference
// solution or anything else the instructor keeps private, and grader/BUILD.json, the commit it
// was made from (the students' clones have a git history of their own, not this one). Refuses
// to write a tree that holds a line of the reference solution, or a module with a function that
// answers a deliverable (export/answers.ts).
import fs from "node:fs";
import path from "node:path";
import { readWords } from "../cli/command-line.js";
import { REPO_ROOT } from "../paths.js";
import { BUILD_FILE, buildFileText, gitBuild, type GraderBuild } from "../report/graded-with.js";
import { answersIn, codeModules, probeModules } from "./export/answers.js";
import { distinctiveSolutionLines, findSolutionLines } from "./export/solution-lines.js";
import { TEMPLATE_SOURCES, templateFiles } from "./export/template.js";

const USAGE = `Usage: npm run export-student -- <dir>

Writes the student template repository into <dir>, a new or empty folder outside this repository.`;

/** Writes the template; returns the exit code (0 written, 1 refused because solution code or an answer was found, 2 bad arguments). */
async function main(argv: string[]): Promise<number> {
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
  const answers = answersIn(await probeModules(REPO_ROOT, codeModules(files.map((f) => f.path))));
  if (answers.length > 0) {
    console.error(`export-student: nothing written: a function of the template answers a deliverable:\n  ${answers.join("\n  ")}`);
    return 1;
  }
  const build = templateBuild();
  const written = build ? [...files, { path: BUILD_FILE, content: Buffer.from(buildFileText(build, "npm run export-student")) }] : files;
  for (const file of written) {
    const to = path.join(dir, file.path);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, file.content);
  }
  console.log(`Wrote the student template to ${shown}: ${written.length} files, no solution code, no function that answers a deliverable.`);
  console.log(build ? `${BUILD_FILE} records commit ${build.commit.slice(0, 7)}${build.dirty ? ", with the uncommitted changes of its files" : ""}: each report graded in the template names it.` : `No ${BUILD_FILE}: this repository has no git commit to record, so the template's reports will name no grader commit.`);
  console.log(`Check it with: cd ${shown} && npm ci && npm run grade`);
  return 0;
}

/** The commit the template is made from, dirty when a file it is made from differs from it; undefined outside a git checkout. */
function templateBuild(): GraderBuild | undefined {
  const asked = TEMPLATE_SOURCES.map((paths) => gitBuild(REPO_ROOT, paths));
  if (asked.some((b) => b === undefined)) return undefined;
  return { commit: asked[0]!.commit, dirty: asked.some((b) => b!.dirty) };
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

process.exitCode = await main(process.argv.slice(2));
