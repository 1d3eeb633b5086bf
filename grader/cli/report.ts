// `npm run report -- --from <report.json> [--only <deliverable>] <format flags> [--points]`: writes a
// report that `npm run grade --json` wrote in other formats, without grading again (a workflow
// grades once and hands each step its part). When the report is missing (the grade did not
// finish), every selected check is written as an error with the rubric's points, so a platform
// still shows what could not be graded and why, never a silent zero. `--points` gives a GitHub
// Actions run its score: the annotation "Points X/Y", and a failed step unless every core check passed.
import fs from "node:fs";
import path from "node:path";
import { FORMATS, formatOf } from "../report/formats/index.js";
import { SCHEMA_VERSION, type Report } from "../report/report.js";
import { deliverablePoints, loadRubric, type Rubric } from "../rubric.js";
import { readReport } from "../report/read-report.js";
import { formatRows } from "./args.js";
import { readWords, unknownOption, usageLines, valueOf, type Options } from "./command-line.js";

const USAGE = `Usage: npm run report -- --from <report.json> [options] <format flags> [--points]

${usageLines([
  ["--from <file>", "the JSON report of a grade (npm run grade -- --json <file>)"],
  ["--only <id>", "only this deliverable (repeatable)"],
  ["--rubric <file>", "the rubric the grade used, for a report that is missing"],
  ...formatRows(),
  ["--points", "print the core score as a GitHub Actions annotation (Points X/Y); exit 1 unless every core check passed"],
])}`;

/**
 * What `--points` prints: the workflow command that shows the core score on a GitHub Actions run's
 * page as the annotation "Points X/Y", then, unless every core check passed, where to read why;
 * and whether every core check passed (the step fails otherwise, as GitHub Classroom's reporter did).
 */
export function points(report: Report): { lines: string[]; passed: boolean } {
  const core = report.deliverables.filter((d) => d.kind === "core").flatMap((d) => d.checks);
  const annotation = `::notice title=Grade::Points ${report.score}/${report.maxScore}`;
  if (core.every((c) => c.status === "passed")) return { lines: [annotation], passed: true };
  const why = core.some((c) => c.status === "error")
    ? "A core check could not be graded: the job summary says which, and the grading step's log why."
    : "Not every core check passed: the job summary tells each lost point, with its replay command.";
  return { lines: [annotation, why], passed: false };
}

/** A report standing for a grade that wrote none: every selected check an error, with `why`. */
export function missingReport(rubric: Rubric, only: string[], why: string): Report {
  const deliverables = rubric.deliverables
    .filter((d) => d.enabled && d.checks.length > 0 && (only.length === 0 || only.includes(d.id)))
    .map((d) => ({
      id: d.id,
      title: d.title,
      kind: d.kind,
      status: "graded" as const,
      points: 0,
      maxPoints: deliverablePoints(d),
      checks: d.checks.map((c) => ({ id: c.id, title: c.title, status: "error" as const, points: 0, maxPoints: c.points, message: why, crashStates: 0 })),
    }));
  const total = (kind: string) => deliverables.filter((d) => d.kind === kind).reduce((n, d) => n + d.maxPoints, 0);
  return { schemaVersion: SCHEMA_VERSION, target: "", seed: rubric.seed, score: 0, maxScore: total("core"), bonus: 0, maxBonus: total("bonus"), deliverables, stats: { crashStates: 0, durationMs: 0 } };
}

const OPTIONS: Options = {
  from: { type: "string" },
  only: { type: "string" },
  rubric: { type: "string" },
  points: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ...Object.fromEntries(FORMATS.map((f) => [f.flag.slice(2), { type: "string" } as const])),
};

interface ReportArgs {
  from?: string;
  rubricFile?: string;
  only: string[];
  outputs: { flag: string; file: string }[];
  points: boolean;
  help: boolean;
}

/** Reads the arguments after `npm run report --` (`--name value`, never `--name=value`) up to the first --help; throws an Error whose message is for the user. */
function parseReportArgs(argv: string[]): ReportArgs {
  const args: ReportArgs = { only: [], outputs: [], points: false, help: false };
  for (const word of readWords(argv, OPTIONS)) {
    if (word.kind === "option" && word.name === "help") return { ...args, help: true };
    if (word.kind === "option" && word.name === "points") {
      args.points = true;
      continue;
    }
    if (word.kind !== "option") {
      // Every word but --help is an option followed by its value: one not known is asked for that value first.
      valueOf({ flag: word.arg, value: argv[word.index + 1], inline: false });
      throw unknownOption(word.arg, OPTIONS);
    }
    const value = valueOf(word);
    if (word.name === "from") args.from = value;
    else if (word.name === "only") args.only.push(...value.split(",").filter(Boolean));
    else if (word.name === "rubric") args.rubricFile = value;
    else args.outputs.push({ flag: word.flag, file: value });
  }
  return args;
}

function main(argv: string[]): number {
  let args: ReportArgs;
  try {
    args = parseReportArgs(argv);
  } catch (error) {
    return fail((error as Error).message);
  }
  if (args.help) return console.log(USAGE), 0;
  const { from, rubricFile, only, outputs } = args;
  if (!from) return fail("--from <report.json> is required");
  if (outputs.length === 0 && !args.points) return fail(`name at least one format: ${FORMATS.map((f) => f.flag).join(", ")}`);
  // The annotation is the whole core score, as the grade counts it: a part of it would pass for the total.
  if (args.points && only.length > 0) return fail("--points counts every core deliverable: give it without --only");
  let report: Report;
  try {
    report = readReport(from);
  } catch (error) {
    // A report that is not there, or not one (cut short, from another version): every check is unknown.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") console.error(`report: ${from} is not a grade's report: ${(error as Error).message}`);
    report = missingReport(loadRubric(rubricFile && path.resolve(rubricFile)), only, "The grade did not finish, so this check has no result: read the grading step's log.");
  }
  for (const { flag, file } of outputs) {
    try {
      fs.writeFileSync(path.resolve(file), formatOf(flag)!.render(report, { env: process.env, only }));
    } catch (error) {
      console.error(`report: ${flag} ${file}: ${(error as Error).message}`);
      return 2;
    }
  }
  if (!args.points) return 0;
  const shown = points(report);
  console.log(shown.lines.join("\n"));
  return shown.passed ? 0 : 1;
}

function fail(message: string): number {
  console.error(`report: ${message}\n\n${USAGE}`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
