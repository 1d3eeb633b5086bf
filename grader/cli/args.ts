// The command line of `npm run grade`: what each flag means and what a wrong one says.
import { FORMATS, formatOf } from "../report/formats/index.js";

export interface GradeArgs {
  target: string;
  json?: string;
  seed?: number;
  only: string[];
  replay?: string;
  rubric?: string;
  /** Report files in other formats: the format's flag, and the file. */
  outputs: { flag: string; file: string }[];
  help: boolean;
}

export const USAGE = `Usage: npm run grade -- [options]

  --target <dir>    the folder to grade (default: starter)
  --only <id>       grade one deliverable (phase1) or one check (phase1.crash-safety); repeatable
  --seed <n>        the seed for every random choice (default: the rubric's); "random" picks one
  --replay <path>   replay one counterexample (the path printed with a failure); needs --only
  --json <file>     also write the report as JSON to <file>
  --rubric <file>   use another rubric file (weights, deliverables, seed, limits)
${formatUsage()}
  --help            show this text`;

/** One usage line per report format: "  --junit <file>     the report as JUnit XML ...". */
export function formatUsage(): string {
  return FORMATS.map((f) => `  ${`${f.flag} <file>`.padEnd(18)}${f.describe}`).join("\n");
}

/** Parses the arguments after `npm run grade --`; throws an Error whose message is for the user. */
export function parseArgs(argv: string[]): GradeArgs {
  const args: GradeArgs = { target: "starter", only: [], outputs: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const [name, inline] = flag.startsWith("--") && flag.includes("=") ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)] : [flag, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith("--"))) throw new Error(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case "--target": args.target = value(); break;
      case "--json": args.json = value(); break;
      case "--rubric": args.rubric = value(); break;
      case "--replay": args.replay = value(); break;
      case "--only": args.only.push(...value().split(",").filter(Boolean)); break;
      case "--seed": {
        const v = value();
        if (v === "random") args.seed = Math.floor(Math.random() * 2 ** 31);
        else if (/^\d+$/.test(v) && Number.isSafeInteger(Number(v))) args.seed = Number(v);
        else throw new Error(`--seed expects a whole number or "random", got ${JSON.stringify(v)}`);
        break;
      }
      case "--help": case "-h": args.help = true; break;
      default:
        if (!formatOf(name)) throw new Error(`unknown option ${JSON.stringify(flag)}`);
        args.outputs.push({ flag: name, file: value() });
    }
  }
  if (args.replay && args.only.length !== 1) throw new Error("--replay replays one check: give exactly one --only <check id>");
  return args;
}
