// npm run readme-tables: writes what README.md and HANDOUT.md say of the lab's manifest
// (grader/rubric.json) from it, so a weight, a title or a check changed there cannot leave either
// saying something else. Each table sits between two comment lines that name it:
//   <!-- from grader/rubric.json: deliverables -->   (every enabled deliverable)
//   <!-- from grader/rubric.json: checks phase1 -->  (one deliverable's checks)
//   <!-- end of table -->
// README.md has a table of checks for every enabled deliverable, whose "what it asks" is the
// manifest's `asks`; HANDOUT.md has some, whose words are the handout's own, kept row by row (a
// new check's start as its `asks`). Numbers outside tables are marked as manifest-numbers.ts says.
// The comments show nowhere once the Markdown is rendered.
// A manifest with a mistake (as a grade finds them, every check against the grader's code) is
// refused with exit 2, and nothing is written. With --check it writes nothing and exits 1 when a
// document differs from what it would write.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DELIVERABLES } from "../checks/index.js";
import { cannotStart, readWords, unknownOption, usageLines, valueOf, type Options } from "../cli/command-line.js";
import { REPO_ROOT } from "../paths.js";
import { DEFAULT_RUBRIC, deliverablePoints, loadRubric, rubricDeliverable, type Rubric, type RubricDeliverable } from "../rubric.js";
import { withManifestNumbers } from "./manifest-numbers.js";

/** A document written from the manifest: which tables it must have, and whose words its tables of checks say. */
export interface ManifestDocument {
  file: string;
  /** Every enabled deliverable has its table of checks (and there is a table of deliverables). */
  everyTable: boolean;
  /** "asks": the manifest's `asks`; "own": the document's words, kept by check id. */
  words: "asks" | "own";
}

export const DOCUMENTS: readonly ManifestDocument[] = [
  { file: "README.md", everyTable: true, words: "asks" },
  { file: "HANDOUT.md", everyTable: false, words: "own" },
];

const START = /^<!-- from grader\/rubric\.json: (deliverables|checks [a-z0-9-]+) -->$/;
const END = "<!-- end of table -->";

/** `text`, the document `doc`, with its tables and numbers written from `rubric`; throws naming a table or a marker it cannot write. */
export function writtenFromManifest(text: string, rubric: Rubric, doc: ManifestDocument): string {
  return withManifestNumbers(withManifestTables(text, rubric, doc), rubric, doc.file);
}

/** `text`, the document `doc`, with each of its manifest tables written from `rubric`; throws naming a table it cannot write. */
export function withManifestTables(text: string, rubric: Rubric, doc: ManifestDocument): string {
  const lines = text.split("\n");
  const out: string[] = [];
  const written = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const start = START.exec(lines[i]!);
    out.push(lines[i]!);
    if (!start) continue;
    const name = start[1]!;
    const end = lines.indexOf(END, i + 1);
    const next = lines.slice(i + 1).findIndex((l) => START.test(l));
    if (end < 0 || (next >= 0 && i + 1 + next < end)) throw new Error(`${doc.file}:${i + 1}: the table "${name}" has no "${END}" line after it`);
    if (written.has(name)) throw new Error(`${doc.file}:${i + 1}: the table "${name}" is there twice`);
    if (name !== "deliverables" && !rubric.deliverables.some((d) => `checks ${d.id}` === name)) throw new Error(`${doc.file}:${i + 1}: the table "${name}" is of no deliverable of the manifest`);
    written.add(name);
    // Blank lines keep each comment apart from the table in every Markdown renderer.
    out.push("", ...tableOf(name, rubric, doc.words === "own" ? wordsOfRows(lines.slice(i + 1, end)) : undefined), "", END);
    i = end;
  }
  const wanted = doc.everyTable ? ["deliverables", ...rubric.deliverables.filter((d) => d.enabled).map((d) => `checks ${d.id}`)] : [];
  const missing = wanted.filter((w) => !written.has(w));
  if (missing.length > 0) throw new Error(`${doc.file}: no table for ${missing.join(", ")} (add a line "<!-- from grader/rubric.json: ${missing[0]} -->" where it goes, and "${END}" after it)`);
  return out.join("\n");
}

/** The Markdown lines of the table `name` ("deliverables" or "checks <id>"); with `own`, a check's "what it asks" is its words there when it has some. */
function tableOf(name: string, rubric: Rubric, own?: Map<string, string>): string[] {
  if (name === "deliverables") {
    return [
      "| deliverable | file | points |",
      "|---|---|---|",
      ...rubric.deliverables.filter((d) => d.enabled).map((d) => `| \`${d.id}\` ${summary(d)} | \`${d.file}\` | ${deliverablePoints(d)}${d.kind === "bonus" ? ", bonus" : ""} |`),
    ];
  }
  const deliverable = rubricDeliverable(rubric, name.slice("checks ".length));
  return ["| check | points | what it asks |", "|---|---|---|", ...deliverable.checks.map((c) => `| \`${c.id}\` | ${c.points} | ${own?.get(c.id) ?? c.asks} |`)];
}

/** A table's "what it asks" by check id, from its rows as the document has them. */
function wordsOfRows(rows: string[]): Map<string, string> {
  const words = new Map<string, string>();
  for (const row of rows) {
    const m = /^\| `([^`]+)` \| [^|]* \| (.*) \|$/.exec(row);
    if (m) words.set(m[1]!, m[2]!);
  }
  return words;
}

/** "atomic checkpoint" from the title "Phase 1: atomic checkpoint". */
function summary(d: RubricDeliverable): string {
  return d.title.slice(d.title.indexOf(":") + 1).trim();
}

const OPTIONS: Options = {
  check: { type: "boolean" },
  rubric: { type: "string" },
  dir: { type: "string" },
  help: { type: "boolean", short: "h" },
};

const USAGE = `Usage: npm run readme-tables -- [options]

${usageLines([
  ["--check", "write nothing; exit 1 when a document differs from what it would write"],
  ["--rubric <file>", "the manifest (default: grader/rubric.json)"],
  ["--dir <folder>", "the folder of README.md and HANDOUT.md (default: the repository)"],
  ["--help", "show this text"],
])}`;

function main(argv: string[]): number {
  const args = { check: false, help: false, rubric: undefined as string | undefined, dir: REPO_ROOT };
  try {
    for (const word of readWords(argv, OPTIONS)) {
      if (word.kind !== "option") throw unknownOption(word.arg, OPTIONS);
      if (word.name === "check" || word.name === "help") args[word.name] = true;
      else if (word.name === "rubric") args.rubric = valueOf(word);
      else args.dir = path.resolve(valueOf(word));
    }
  } catch (error) {
    console.error(cannotStart("readme-tables", error, USAGE));
    return 2;
  }
  if (args.help) return console.log(USAGE), 0;
  let writes: { doc: ManifestDocument; file: string; before: string; after: string }[];
  try {
    const rubric = loadRubric(args.rubric ? path.resolve(args.rubric) : DEFAULT_RUBRIC, { grader: DELIVERABLES });
    // Every document is made before any is written: a mistake in one writes none.
    writes = DOCUMENTS.map((doc) => {
      const file = path.join(args.dir, doc.file);
      const before = fs.readFileSync(file, "utf8");
      return { doc, file, before, after: writtenFromManifest(before, rubric, doc) };
    });
  } catch (error) {
    // The manifest's mistakes, and the documents': neither is the command line's.
    console.error(`readme-tables: ${(error as Error).message}`);
    return 2;
  }
  const from = args.rubric ?? "grader/rubric.json";
  let differs = false;
  for (const { doc, file, before, after } of writes) {
    if (after === before) console.log(`${doc.file}: says what ${from} says`);
    else if (args.check) {
      differs = true;
      console.error(`${doc.file}: its tables or numbers differ from ${from}; run npm run readme-tables to write them`);
    } else {
      fs.writeFileSync(file, after);
      console.log(`${doc.file}: written from ${from}`);
    }
  }
  return differs ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
