// The numbers a document (HANDOUT.md) takes from the manifest, outside its tables: a check's or a
// deliverable's points, the core total, the seed, the limits, the lab task's. Each is named by a comment line
// above the paragraph, list or code block that says it, with the words around it and "#" where
// the number goes:
//   <!-- from grader/rubric.json: points of stretch-git, in "`stretch-git`, # points" -->
//   `stretch-git`, 10 points. Write the Phase 2 runner again, ...
// Several such lines may stand one above the other; each rewrites its number in the block below
// them (up to the next blank line, or a fenced code block whole), where its words must be once.
// The comments show nowhere once the Markdown is rendered, and the text stays as students read it.
import { closest } from "../closest.js";
import { deliverablePoints, rubricCheck, type Rubric } from "../rubric.js";
import { comparisonSteps, inWords } from "../rubric-task.js";

/**
 * Every number written from the manifest, by the name a marker gives it; "<id>" in a name stands
 * for a deliverable's or a check's id. A new number is one entry here and a marker where it is said.
 */
export const GENERATED_VALUES: Readonly<Record<string, (rubric: Rubric, id: string) => string>> = {
  "points of <id>": (rubric, id) => String(pointsOf(rubric, id)),
  "core points": (rubric) => String(rubric.deliverables.filter((d) => d.enabled && d.kind === "core").reduce((n, d) => n + deliverablePoints(d), 0)),
  seed: (rubric) => String(rubric.seed),
  "seconds a call": (rubric) => decimal(rubric.limits.callMs / 1000),
  "seconds a process": (rubric) => decimal(rubric.limits.processMs / 1000),
  "MiB of memory": (rubric) => decimal(rubric.limits.memoryMiB),
  "MiB a file": (rubric) => decimal(rubric.limits.fileMiB),
  "KiB of output kept": (rubric) => decimal(rubric.limits.outputKiB),
  "steps of the task": (rubric) => String(rubric.task.steps),
  "step after the last": (rubric) => String(rubric.task.steps + 1),
  "steps of the sessions": (rubric) => inWords(rubric.task.sessions),
  "step of the kill": (rubric) => String(rubric.task.killedAtStep),
  "steps the comparison crashes": (rubric) => inWords(comparisonSteps(rubric.task)),
};

/** A marker of a number: what it is, and the words around it. */
const MARKER = /^<!-- from grader\/rubric\.json: (.+?), in "(.*)" -->$/;

/** What "#" stands for in a marker's words: a number, or numbers in words ("4, 4 and 2"). */
const NUMBER = String.raw`(\d+(?:\.\d+)?(?:(?:,\s+|\s+and\s+)\d+(?:\.\d+)?)*)`;

/** The document `text` (named `file` in messages) with the number of each marker written from `rubric`; throws naming the line of a marker it cannot follow. */
export function withManifestNumbers(text: string, rubric: Rubric, file: string): string {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!MARKER.test(lines[i]!)) continue;
    const first = i;
    while (MARKER.test(lines[i + 1] ?? "")) i++;
    const [from, to] = blockBelow(lines, i + 1);
    if (from === to) throw new Error(`${file}:${first + 1}: a marker with nothing below it`);
    let block = lines.slice(from, to).join("\n");
    for (let m = first; m <= i; m++) block = written(block, lines[m]!, rubric, `${file}:${m + 1}`);
    lines.splice(from, to - from, ...block.split("\n"));
  }
  return lines.join("\n");
}

/** `block` with the number the marker `line` names written in; `where` ("HANDOUT.md:159") names the marker in messages. */
function written(block: string, line: string, rubric: Rubric, where: string): string {
  const [, name, words] = MARKER.exec(line)!;
  const value = valueOf(name!, rubric, where);
  const parts = words!.split("#");
  if (parts.length !== 2) throw new Error(`${where}: the words "${words}" need one "#" where the number goes`);
  const pattern = new RegExp(`(${literal(parts[0]!)})${NUMBER}${literal(parts[1]!)}`, "g");
  const found = [...block.matchAll(pattern)];
  if (found.length !== 1) throw new Error(`${where}: "${words}" is ${found.length === 0 ? "not in the block below" : `in the block below ${found.length} times: quote more of its words`}`);
  const [match] = found;
  const start = match!.index! + match![1]!.length;
  return block.slice(0, start) + value + block.slice(start + match![2]!.length);
}

/** The value `name` names ("points of phase1.crash-safety"), as written. */
function valueOf(name: string, rubric: Rubric, where: string): string {
  if (Object.hasOwn(GENERATED_VALUES, name)) return GENERATED_VALUES[name]!(rubric, "");
  for (const [key, value] of Object.entries(GENERATED_VALUES)) {
    const prefix = key.endsWith(" <id>") ? key.slice(0, -"<id>".length) : undefined;
    if (prefix && name.startsWith(prefix)) {
      const id = name.slice(prefix.length);
      const ids = rubric.deliverables.flatMap((d) => [d.id, ...d.checks.map((c) => c.id)]);
      if (!ids.includes(id)) {
        const near = closest(id, ids);
        throw new Error(`${where}: ${id} is no deliverable or check of the manifest${near ? ` (did you mean ${near}?)` : ""}`);
      }
      return value(rubric, id);
    }
  }
  const near = closest(name, Object.keys(GENERATED_VALUES));
  throw new Error(`${where}: no number is named "${name}"${near ? ` (did you mean ${near}?)` : ""}; the names are ${Object.keys(GENERATED_VALUES).join(", ")}`);
}

/** The lines of the block that starts at `at`: a fenced code block to its closing fence, else up to the next blank line. */
function blockBelow(lines: string[], at: number): [number, number] {
  if (lines[at]?.startsWith("```")) {
    const close = lines.findIndex((l, k) => k > at && l.startsWith("```"));
    return [at, close < 0 ? lines.length : close + 1];
  }
  let end = at;
  while (end < lines.length && lines[end]!.trim() !== "") end++;
  return [at, end];
}

/** A deliverable's points (its checks') or a check's; `id` is one of the manifest's. */
function pointsOf(rubric: Rubric, id: string): number {
  const deliverable = rubric.deliverables.find((d) => d.id === id);
  return deliverable ? deliverablePoints(deliverable) : rubricCheck(rubric, id)!.points;
}

/** 5 as "5", 2.5 as "2.5". */
function decimal(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** `words` as a pattern: their characters as they are, any run of white space as any other (a paragraph may wrap between them). */
function literal(words: string): string {
  return words
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s+");
}
