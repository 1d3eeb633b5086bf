// The command line of `npm run grade-batch`: what each flag means and what a wrong one says.
import { parseArgs as parseGradeArgs } from "../../cli/args.js";
import { readWords, unknownOption, usageLines, valueOf, type Options } from "../../cli/command-line.js";
import { parseShard, type Shard } from "./shard.js";

export interface BatchArgs {
  submissions: string;
  out: string;
  /** How many grades run at once; unset: half the machine's cores. */
  jobs?: number;
  /** The wall-clock limit on one submission's grade; unset: the grade's own bound, scaled. */
  timeoutMs?: number;
  /** Passed to every grade as they are (a random seed is chosen once, for the whole batch). */
  gradeArgs: string[];
  /** The --only ids among them. */
  only: string[];
  /** The rubric file to scale and pass on; unset: the repository's. */
  rubric?: string;
  /** Grade only this shard of the submissions (see shard.ts for the split); unset: all of them. */
  shard?: Shard;
  /** The roster map that gives each submission its student id (roster-map.ts); unset: no student id column. */
  rosterMap?: string;
  help: boolean;
}

export const USAGE = `Usage: npm run grade-batch -- <submissions-dir> --out <file.csv> [options]

Grades every folder in <submissions-dir> (a clone of a student's repository, or a starter
folder) with this repository's grader, and writes the gradebook to <file.csv> and each
submission's JSON report to <file>-reports/.

${usageLines([
  ["--out <file.csv>", "the gradebook to write (required)"],
  ["--jobs <n>", "grades run at once (default: half the cores, at least 1)"],
  ["--timeout <s>", "seconds one grade may take before it is stopped (default: the grade's own bound)"],
  ["--seed <n>", 'passed to every grade ("random" picks one seed for the whole batch)'],
  ["--only <id>", "passed to every grade; repeatable"],
  ["--rubric <file>", "the rubric to grade with"],
  ["--shard <k/n>", "grade only the k-th of n shards: the submissions sorted by name, dealt round-robin (the 1st, (n+1)th, ... to shard 1)"],
  ["--roster-map <file>", "a CSV of each submission's student id (a submission, repository or github column, and a student id, sis id, sid or email column): adds a student id column"],
  ["--help", "show this text"],
])}`;

const OPTIONS: Options = {
  out: { type: "string" },
  rubric: { type: "string" },
  jobs: { type: "string" },
  timeout: { type: "string" },
  seed: { type: "string" },
  only: { type: "string" },
  shard: { type: "string" },
  "roster-map": { type: "string" },
  help: { type: "boolean", short: "h" },
};

/** Parses the arguments after `npm run grade-batch --` (`--name value`, never `--name=value`); throws an Error whose message is for the user. */
export function parseBatchArgs(argv: string[]): BatchArgs {
  const positional: string[] = [];
  const pass: string[] = [];
  const args: Omit<BatchArgs, "submissions" | "out" | "gradeArgs" | "only"> & { out?: string } = { help: false };
  for (const word of readWords(argv, OPTIONS)) {
    if (word.kind === "positional") positional.push(word.arg);
    else if (word.kind === "unknown") throw unknownOption(word.arg, OPTIONS);
    else if (word.name === "help") args.help = true;
    else if (word.name === "out") args.out = valueOf(word);
    else if (word.name === "rubric") args.rubric = valueOf(word);
    else if (word.name === "jobs") args.jobs = wholeNumber(word.flag, valueOf(word));
    else if (word.name === "timeout") args.timeoutMs = wholeNumber(word.flag, valueOf(word)) * 1000;
    else if (word.name === "shard") args.shard = parseShard(word.flag, valueOf(word));
    else if (word.name === "roster-map") args.rosterMap = valueOf(word);
    else pass.push(word.flag, valueOf(word)); // --seed, --only
  }
  if (args.help) return { ...args, submissions: "", out: "", gradeArgs: [], only: [] };
  if (positional.length !== 1) throw new Error(`expected one submissions folder, got ${positional.length === 0 ? "none" : positional.map((p) => JSON.stringify(p)).join(" ")}`);
  if (!args.out) throw new Error("--out <file.csv> is required: where to write the gradebook");
  // A shard holds some of the class: every student of the map it lacks would be an error row.
  if (args.rosterMap && args.shard) throw new Error("--roster-map maps a whole class, not a shard: give it to the merge of the shards' gradebooks (npm run regrade -- merge --roster-map <file>)");
  // The grade's own parser says what is wrong with a seed, once, before any grade starts.
  const grade = parseGradeArgs(pass);
  const gradeArgs = [...(grade.seed === undefined ? [] : ["--seed", String(grade.seed)]), ...grade.only.flatMap((id) => ["--only", id])];
  return { ...args, submissions: positional[0]!, out: args.out, gradeArgs, only: grade.only };
}

function wholeNumber(flag: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`${flag} expects a whole number of at least 1, got ${JSON.stringify(v)}`);
  return Number(v);
}
