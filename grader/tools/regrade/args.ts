// The command line of `npm run regrade`: its three commands (plan, clone, merge), what each flag
// means and what a wrong one says.
import { readWords, unknownOption, usageLines, valueOf, type Options, type OptionWord } from "../../cli/command-line.js";
import { MAX_SHARDS, parseShard, type Shard } from "../batch/shard.js";
import type { ClassSource } from "./plan.js";

export type RegradeArgs =
  | { command: "help" }
  | { command: "plan"; source: ClassSource; shards: number; out: string; deadline?: Date }
  | { command: "clone"; roster: string; shard: Shard; into: string; record: string; deadline?: Date }
  | { command: "merge"; roster: string; from: string; out: string; rosterMap?: string };

/** The shards plan asks for when not told. */
export const DEFAULT_SHARDS = 10;

/** A command's flags, in the column every command's flags share. */
function section(rows: [flag: string, text: string][]): string {
  return usageLines(rows.map(([flag, text]) => [flag.padEnd("--deadline <time>".length), text]));
}

export const USAGE = `Usage: npm run regrade -- <plan|clone|merge> [options]

Regrades a class with this repository's grader on several machines at once (the Regrade
workflow runs these three in turn). The token, when one is needed, is read from CLASSROOM_TOKEN;
GITHUB_API_URL and GITHUB_SERVER_URL name the server (default: github.com).

plan: resolves the class into a roster file and splits it into shards
${section([
  ["--roster <file>", "a roster file: one owner/name a line, # starts a comment"],
  ["--org <org>", "or an organisation's repositories named <prefix>-<username>"],
  ["--prefix <prefix>", "the assignment's prefix (with --org)"],
  ["--shards <n>", `shards wanted (default ${DEFAULT_SHARDS}; no more than students, nor ${MAX_SHARDS})`],
  ["--deadline <time>", "checked here, so that a mistyped one stops the run before any shard starts"],
  ["--out <file>", "the roster file to write (required); shards and matrix go to GITHUB_OUTPUT"],
])}

clone: clones one shard's repositories, one folder each
${section([
  ["--roster <file>", "the roster file plan wrote (required)"],
  ["--shard <k/n>", "the shard to clone (required; n is the roster's shard count)"],
  ["--into <dir>", "where to clone (required)"],
  ["--record <file>", "the record of what was cloned at which commit, and what could not be (required)"],
  ["--deadline <time>", "clone each repository's last commit on its default branch at or before this time, ISO 8601 with its zone (2026-05-01T23:59:00-04:00)"],
])}

merge: merges the shards' gradebooks into one, and writes the job summary
${section([
  ["--roster <file>", "the roster file plan wrote (required)"],
  ["--from <dir>", "one folder per shard, each with grades.json, grades-reports/ and clones.json (required)"],
  ["--out <file.csv>", "the gradebook to write (required), with its JSON and reports beside it"],
  ["--roster-map <file>", "a CSV of each student's id by repository, github user or submission: adds a student id column"],
])}`;

const COMMANDS: Record<"plan" | "clone" | "merge", Options> = {
  plan: { roster: { type: "string" }, org: { type: "string" }, prefix: { type: "string" }, shards: { type: "string" }, deadline: { type: "string" }, out: { type: "string" } },
  clone: { roster: { type: "string" }, shard: { type: "string" }, into: { type: "string" }, record: { type: "string" }, deadline: { type: "string" } },
  merge: { roster: { type: "string" }, from: { type: "string" }, out: { type: "string" }, "roster-map": { type: "string" } },
};

/** Parses the arguments after `npm run regrade --`; throws an Error whose message is for the user. */
export function parseRegradeArgs(argv: string[]): RegradeArgs {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h") return { command: "help" };
  if (command !== "plan" && command !== "clone" && command !== "merge") throw new Error(`expected a command, plan, clone or merge, got ${command === undefined ? "none" : JSON.stringify(command)}`);
  const options: Options = { ...COMMANDS[command], help: { type: "boolean", short: "h" } };
  const given = new Map<string, OptionWord>();
  for (const word of readWords(rest, options)) {
    if (word.kind === "positional") throw new Error(`regrade ${command} takes no ${JSON.stringify(word.arg)}: every value follows its option`);
    if (word.kind === "unknown") throw unknownOption(word.arg, options);
    given.set(word.name, word);
  }
  if (given.has("help")) return { command: "help" };
  const value = (name: string) => (given.has(name) ? valueOf(given.get(name)!) : undefined);
  const required = (name: string, what: string) => value(name) || fail(`regrade ${command} needs --${name} ${what}`);
  const deadline = value("deadline") ? parseDeadline("--deadline", value("deadline")!) : undefined;
  if (command === "plan") {
    const roster = value("roster");
    const org = value("org");
    const prefix = value("prefix");
    if (roster && (org || prefix)) fail("regrade plan takes --roster or --org with --prefix, not both");
    if (!roster && !(org && prefix)) fail(`regrade plan needs --roster <file>, or --org <org> with --prefix <prefix>${org || prefix ? `; got only --${org ? "org" : "prefix"}` : ""}`);
    const source: ClassSource = roster ? { kind: "file", file: roster } : { kind: "org", org: org!, prefix: prefix! };
    const shards = value("shards") === undefined ? DEFAULT_SHARDS : wholeNumber("--shards", value("shards")!);
    return { command, source, shards, out: required("out", "<file>"), ...(deadline ? { deadline } : {}) };
  }
  if (command === "clone") {
    const shard = parseShard("--shard", required("shard", "<k/n>"));
    return { command, roster: required("roster", "<file>"), shard, into: required("into", "<dir>"), record: required("record", "<file>"), ...(deadline ? { deadline } : {}) };
  }
  const rosterMap = value("roster-map");
  return { command, roster: required("roster", "<file>"), from: required("from", "<dir>"), out: required("out", "<file.csv>"), ...(rosterMap ? { rosterMap } : {}) };
}

/** An instant written in ISO 8601 with its zone ("2026-05-01T23:59:00-04:00", "...Z"): without one it would mean the runner's time zone. */
export function parseDeadline(flag: string, text: string): Date {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
  const date = new Date(text);
  // A date that rolls over (February 30th) parses to another day: it must print back to the same fields.
  if (!iso.test(text) || Number.isNaN(date.getTime()) || !sameFields(text, date)) throw new Error(`${flag} expects a time in ISO 8601 with its zone, such as 2026-05-01T23:59:00-04:00 or 2026-05-01T23:59:00Z, got ${JSON.stringify(text)}`);
  return date;
}

/** Whether the date and time written in `text` (in its own zone) are those of `date`. */
function sameFields(text: string, date: Date): boolean {
  const zone = /(Z|[+-]\d{2}:\d{2})$/.exec(text)![1]!;
  const offset = zone === "Z" ? 0 : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const local = new Date(date.getTime() + offset * 60_000).toISOString();
  return local.slice(0, 16) === text.slice(0, 16);
}

function wholeNumber(flag: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`${flag} expects a whole number of at least 1, got ${JSON.stringify(v)}`);
  return Number(v);
}

function fail(message: string): never {
  throw new Error(message);
}
