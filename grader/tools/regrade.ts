// `npm run regrade -- <plan|clone|merge>`: the regrade of record of a whole class, on several
// machines at once (.github/workflows/regrade.yml runs it): plan resolves the class and splits it
// into shards, clone brings one shard's repositories at their commit before the deadline, each
// shard grades its clones with grade-batch, and merge makes one gradebook of the shards'.
// Exit 0 when done (students who could not be cloned or graded are error rows), 2 when it cannot run.
import fs from "node:fs";
import { loadRubric } from "../rubric.js";
import { USAGE, parseRegradeArgs, type RegradeArgs } from "./regrade/args.js";
import { cloneShard } from "./regrade/clone.js";
import { mergeShards } from "./regrade/merge.js";
import { plan } from "./regrade/plan.js";
import { readRoster } from "./regrade/roster.js";
import { readRosterMap } from "./batch/roster-map.js";
import { regradeSummary } from "./regrade/summary.js";

/** One clone may take this long: a lab repository is small, and a server that does not answer must not hold the shard. */
const CLONE_TIMEOUT_MS = 5 * 60_000;

async function main(argv: string[]): Promise<number> {
  let args: RegradeArgs;
  try {
    args = parseRegradeArgs(argv);
  } catch (error) {
    console.error(`regrade: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const log = (line: string) => console.error(line);
  const env = process.env;
  try {
    if (args.command === "help") return console.log(USAGE), 0;
    if (args.command === "plan") {
      await plan({ source: args.source, shards: args.shards, out: args.out, token: env.CLASSROOM_TOKEN || undefined, apiUrl: env.GITHUB_API_URL || "https://api.github.com", githubOutput: env.GITHUB_OUTPUT || undefined, log });
      return 0;
    }
    const roster = readRoster(args.roster);
    if (args.command === "clone") {
      if (args.shard.count !== roster.shards) throw new Error(`--shard ${args.shard.index}/${args.shard.count} does not match the roster, which plan split into ${roster.shards} shards`);
      await cloneShard({ roster, shard: args.shard, into: args.into, record: args.record, deadline: args.deadline, serverUrl: env.GITHUB_SERVER_URL || "https://github.com", token: env.CLASSROOM_TOKEN || undefined, timeoutMs: CLONE_TIMEOUT_MS, log });
      return 0;
    }
    if (!fs.statSync(args.from, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`--from ${JSON.stringify(args.from)} is not a folder; expected the folder holding one folder per shard`);
    const rubric = loadRubric();
    const rosterMap = args.rosterMap === undefined ? undefined : readRosterMap(args.rosterMap);
    const rows = mergeShards({ roster, from: args.from, out: args.out, rubric, rosterMap, log });
    // In a workflow the summary is the job's; elsewhere it is printed.
    const summary = regradeSummary(rubric, rows, { rosterMap: rosterMap?.file });
    if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, summary);
    else console.log(summary);
    return 0;
  } catch (error) {
    console.error(`regrade ${args.command}: ${(error as Error).message}`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`regrade: could not finish: ${(error as Error)?.message ?? error}`);
    process.exit(2);
  },
);
