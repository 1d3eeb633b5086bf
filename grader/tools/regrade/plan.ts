// `regrade plan`: the class (a roster file, or an organisation's Classroom repositories) resolved
// into the roster file every shard reads, and the shards to start: `shards` and `matrix` written
// to GITHUB_OUTPUT for the grade job's matrix.
import fs from "node:fs";
import { MAX_SHARDS } from "../batch/shard.js";
import { classroomRepositories } from "./org-repos.js";
import { parseRosterFile, rosterEntries, shardCount, writeRoster, type Roster } from "./roster.js";

/** Where the class comes from: a roster file, or an organisation and the assignment's prefix. */
export type ClassSource = { kind: "file"; file: string } | { kind: "org"; org: string; prefix: string };

export interface PlanOptions {
  source: ClassSource;
  /** The shards asked for; fewer are used when the class is smaller. */
  shards: number;
  /** Where to write the roster file. */
  out: string;
  /** The token (CLASSROOM_TOKEN), for the organisation's listing. */
  token?: string;
  /** The API's base URL (GITHUB_API_URL). */
  apiUrl: string;
  /** The step's GITHUB_OUTPUT file, when run as a workflow step. */
  githubOutput?: string;
  /** Where notes go (repositories listed twice, the count resolved). */
  log: (line: string) => void;
}

/** Resolves the class, writes the roster file and the step's outputs; returns the roster. Throws, for the user, when there is no class to grade. */
export async function plan(opts: PlanOptions): Promise<Roster> {
  const { repositories, from } = await resolveClass(opts);
  if (repositories.length === 0) throw new Error(`${from} holds no repository; expected at least one student's`);
  const entries = rosterEntries(repositories);
  const shards = shardCount(opts.shards, entries.length, MAX_SHARDS);
  const roster: Roster = { rosterVersion: 1, source: from, shards, entries };
  writeRoster(opts.out, roster);
  if (opts.githubOutput) fs.appendFileSync(opts.githubOutput, `shards=${shards}\nmatrix=${JSON.stringify({ shard: Array.from({ length: shards }, (_, i) => i + 1) })}\n`);
  opts.log(`${entries.length} repositor${entries.length === 1 ? "y" : "ies"} from ${from}, in ${shards} shard${shards === 1 ? "" : "s"}${shards < opts.shards ? ` (${opts.shards} asked for)` : ""}.`);
  return roster;
}

/** The repositories of the class, and where they came from in words. */
async function resolveClass(opts: PlanOptions): Promise<{ repositories: string[]; from: string }> {
  const source = opts.source;
  if (source.kind === "file") {
    let text: string;
    try {
      text = fs.readFileSync(source.file, "utf8");
    } catch (error) {
      throw new Error(`could not read the roster file ${JSON.stringify(source.file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; expected a file in this repository, one owner/name a line`);
    }
    const { repositories, repeated } = parseRosterFile(text, source.file);
    for (const line of repeated) opts.log(`${line}: counted once`);
    return { repositories, from: source.file };
  }
  if (!opts.token) throw new Error(`listing the repositories of ${source.org} needs a token: set the secret CLASSROOM_TOKEN (read access to the organisation's repositories)`);
  const repositories = await classroomRepositories({ apiUrl: opts.apiUrl, org: source.org, prefix: source.prefix, token: opts.token });
  return { repositories, from: `the repositories of ${source.org} named ${source.prefix}-*` };
}
