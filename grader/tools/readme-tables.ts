// npm run readme-tables: writes the README's tables of deliverables and checks from the lab's
// manifest (grader/rubric.json), so a weight, a title or a check changed there cannot leave the
// README saying something else. Each table sits between two comment lines that name it:
//   <!-- from grader/rubric.json: deliverables -->   (every enabled deliverable)
//   <!-- from grader/rubric.json: checks phase1 -->  (one deliverable's checks)
//   <!-- end of table -->
// (the comments show nowhere once the README is rendered).
// With --check it writes nothing and exits 1 when the README differs from what it would write.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../paths.js";
import { deliverablePoints, loadRubric, rubricDeliverable, type Rubric, type RubricDeliverable } from "../rubric.js";

const START = /^<!-- from grader\/rubric\.json: (deliverables|checks [a-z0-9-]+) -->$/;
const END = "<!-- end of table -->";

/** The README `readme` with each of its manifest tables written from `rubric`; throws naming a table it cannot write. */
export function withManifestTables(readme: string, rubric: Rubric): string {
  const lines = readme.split("\n");
  const out: string[] = [];
  const written = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const start = START.exec(lines[i]!);
    out.push(lines[i]!);
    if (!start) continue;
    const name = start[1]!;
    const end = lines.indexOf(END, i + 1);
    const next = lines.slice(i + 1).findIndex((l) => START.test(l));
    if (end < 0 || (next >= 0 && i + 1 + next < end)) throw new Error(`README: the table "${name}" has no "${END}" line after it`);
    if (written.has(name)) throw new Error(`README: the table "${name}" is there twice`);
    written.add(name);
    // Blank lines keep each comment apart from the table in every Markdown renderer.
    out.push("", ...tableOf(name, rubric), "", END);
    i = end;
  }
  const wanted = ["deliverables", ...rubric.deliverables.filter((d) => d.enabled).map((d) => `checks ${d.id}`)];
  const missing = wanted.filter((w) => !written.has(w));
  if (missing.length > 0) throw new Error(`README: no table for ${missing.join(", ")} (add a line "<!-- from grader/rubric.json: ${missing[0]} -->" where it goes, and "${END}" after it)`);
  return out.join("\n");
}

/** The Markdown lines of the table `name` ("deliverables" or "checks <id>"). */
function tableOf(name: string, rubric: Rubric): string[] {
  if (name === "deliverables") {
    return [
      "| deliverable | file | points |",
      "|---|---|---|",
      ...rubric.deliverables.filter((d) => d.enabled).map((d) => `| \`${d.id}\` ${summary(d)} | \`${d.file}\` | ${deliverablePoints(d)}${d.kind === "bonus" ? ", bonus" : ""} |`),
    ];
  }
  const deliverable = rubricDeliverable(rubric, name.slice("checks ".length));
  return ["| check | points | what it asks |", "|---|---|---|", ...deliverable.checks.map((c) => `| \`${c.id}\` | ${c.points} | ${c.asks} |`)];
}

/** "atomic checkpoint" from the title "Phase 1: atomic checkpoint". */
function summary(d: RubricDeliverable): string {
  return d.title.slice(d.title.indexOf(":") + 1).trim();
}

function main(): void {
  const { values } = parseArgs({ options: { check: { type: "boolean" } } });
  const file = path.join(REPO_ROOT, "README.md");
  const readme = fs.readFileSync(file, "utf8");
  const wanted = withManifestTables(readme, loadRubric());
  if (wanted === readme) return console.log("README.md: its tables say what grader/rubric.json says");
  if (values.check) {
    console.error("README.md: its tables differ from grader/rubric.json; run npm run readme-tables to write them");
    process.exit(1);
  }
  fs.writeFileSync(file, wanted);
  console.log("README.md: tables written from grader/rubric.json");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
