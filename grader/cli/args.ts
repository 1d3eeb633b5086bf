// The command line of `npm run grade`: what each flag means and what a wrong one says.
import { FORMATS } from "../report/formats/index.js";
import type { Rubric } from "../rubric.js";
import { closest } from "../closest.js";
import { readWords, unknownOption, usageLines, valueOf, type Options } from "./command-line.js";

export interface GradeArgs {
  target: string;
  json?: string;
  seed?: number;
  only: string[];
  replay?: string;
  rubric?: string;
  /** Report files in other formats: the format's flag, and the file. */
  outputs: { flag: string; file: string }[];
  /** --no-cache: grade every deliverable, none from the verdict cache. */
  noCache: boolean;
  /** --watch: grade again on every save. */
  watch: boolean;
  help: boolean;
}

export const USAGE = `Usage: npm run grade -- [options]

${usageLines([
  ["--target <dir>", "the folder to grade (default: starter)"],
  ["--only <id>", "grade one deliverable (phase1) or one check (phase1.crash-safety); repeatable"],
  ["--seed <n>", 'the seed for every random choice (default: the rubric\'s); "random" picks one'],
  ["--replay <path>", "replay one counterexample (the path printed with a failure); needs --only"],
  ["--json <file>", "also write the report as JSON to <file>"],
  ["--rubric <file>", "use another rubric file (weights, deliverables, seed, limits)"],
  ["--no-cache", "grade every deliverable again, none from the verdict cache (a grade with CI set never uses it)"],
  ["--watch", "grade again each time a file of the target is saved; q or Ctrl-C quits"],
  ...formatRows(),
  ["--help", "show this text"],
])}`;

/** What is wrong with `only` for `rubric` ("--only phase1.crash-safty: no such deliverable or check in the rubric (did you mean phase1.crash-safety?)"), or null. */
export function unknownSelections(rubric: Rubric, only: string[]): string | null {
  const ids = rubric.deliverables.flatMap((d) => [d.id, ...d.checks.map((c) => c.id)]);
  const unknown = only.filter((id) => !ids.includes(id));
  if (unknown.length === 0) return null;
  const named = unknown.map((id) => {
    const near = closest(id, ids);
    return near ? `${id} (did you mean ${near}?)` : id;
  });
  return `--only ${named.join(", ")}: no such deliverable or check in the rubric`;
}

/** One usage row per report format: ["--junit <file>", "the report as JUnit XML ..."]. */
export function formatRows(): [string, string][] {
  return FORMATS.map((f) => [`${f.flag} <file>`, f.describe]);
}

const OPTIONS: Options = {
  target: { type: "string" },
  json: { type: "string" },
  rubric: { type: "string" },
  replay: { type: "string" },
  only: { type: "string" },
  seed: { type: "string" },
  "no-cache": { type: "boolean" },
  watch: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ...Object.fromEntries(FORMATS.map((f) => [f.flag.slice(2), { type: "string" } as const])),
};

/** Parses the arguments after `npm run grade --` (`--name value` or `--name=value`); throws an Error whose message is for the user. */
export function parseArgs(argv: string[]): GradeArgs {
  const args: GradeArgs = { target: "starter", only: [], outputs: [], noCache: false, watch: false, help: false };
  for (const word of readWords(argv, OPTIONS, { inline: true })) {
    if (word.kind !== "option") throw unknownOption(word.arg, OPTIONS);
    switch (word.name) {
      case "target": args.target = valueOf(word); break;
      case "json": args.json = valueOf(word); break;
      case "rubric": args.rubric = valueOf(word); break;
      case "replay": args.replay = valueOf(word); break;
      case "only": args.only.push(...valueOf(word).split(",").filter(Boolean)); break;
      case "seed": {
        const v = valueOf(word);
        if (v === "random") args.seed = Math.floor(Math.random() * 2 ** 31);
        else if (/^\d+$/.test(v) && Number.isSafeInteger(Number(v))) args.seed = Number(v);
        else throw new Error(`--seed expects a whole number or "random", got ${JSON.stringify(v)}`);
        break;
      }
      case "help": args.help = true; break;
      case "no-cache": args.noCache = true; break;
      case "watch": args.watch = true; break;
      default: args.outputs.push({ flag: word.flag, file: valueOf(word) });
    }
  }
  if (args.replay && args.only.length !== 1) throw new Error("--replay replays one check: give exactly one --only <check id>");
  if (args.watch && args.replay) throw new Error("--watch grades again on every save; --replay runs one case once: give one of them");
  return args;
}
