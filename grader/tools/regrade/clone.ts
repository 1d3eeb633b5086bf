// `regrade clone`: one shard's repositories cloned, one folder each, at their last commit before
// the deadline. A repository that cannot be cloned, or has no commit before the deadline, is
// recorded with the reason (the merge makes it an error row) and the next one is cloned: the run
// never stops for one student.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { shardOf, type Shard } from "../batch/shard.js";
import type { Roster, RosterEntry } from "./roster.js";

/** A repository cloned: the commit checked out, and its committer date (ISO 8601, UTC). */
export interface Cloned extends RosterEntry {
  commit: string;
  committedAt: string;
}

/** A repository that could not be cloned, and why. */
export interface CloneFailure extends RosterEntry {
  error: string;
}

/** What `regrade clone` records (clones.json, beside the shard's gradebook). */
export interface CloneRecord {
  clonesVersion: 1;
  shard: string;
  /** The deadline, ISO 8601 in UTC, when there was one. */
  deadline?: string;
  cloned: Cloned[];
  failed: CloneFailure[];
}

export interface CloneOptions {
  roster: Roster;
  shard: Shard;
  /** The folder to clone into, one folder per repository. */
  into: string;
  /** Where to write the record. */
  record: string;
  /** Check out the last commit at or before this time. */
  deadline?: Date;
  /** The server's base URL (GITHUB_SERVER_URL): a repository is cloned from <server>/<owner>/<name>.git. */
  serverUrl: string;
  /** The token (CLASSROOM_TOKEN), given to git for an http(s) server; never printed nor written to disk. */
  token?: string;
  /** How long one clone may take. */
  timeoutMs: number;
  log: (line: string) => void;
}

/** Clones at most this many repositories at once: a clone mostly waits on the network. */
const AT_ONCE = 4;

/** Clones the shard's repositories and writes the record; returns it. */
export async function cloneShard(opts: CloneOptions): Promise<CloneRecord> {
  const entries = shardOf(opts.roster.entries, opts.shard, (e) => e.folder);
  fs.mkdirSync(opts.into, { recursive: true });
  // Git leaves credentials out of the URLs it prints; older versions did not always.
  const redact = (text: string) => (opts.token ? text.split(opts.token).join("***") : text);
  const outcomes = await inTurns(entries, AT_ONCE, (entry) => cloneOne(entry, opts).catch((error: Error) => ({ ...entry, error: `could not clone ${entry.repository}: ${error.message}` })));
  const record: CloneRecord = { clonesVersion: 1, shard: `${opts.shard.index}/${opts.shard.count}`, ...(opts.deadline ? { deadline: opts.deadline.toISOString() } : {}), cloned: [], failed: [] };
  for (const outcome of outcomes) {
    if ("error" in outcome) {
      const failure = { ...outcome, error: redact(outcome.error) };
      record.failed.push(failure);
      fs.rmSync(path.join(opts.into, outcome.folder), { recursive: true, force: true });
      opts.log(`${outcome.folder}: ${failure.error}`);
    } else {
      record.cloned.push(outcome);
      opts.log(`${outcome.folder}: ${outcome.repository} at ${outcome.commit.slice(0, 12)} (${outcome.committedAt})`);
    }
  }
  fs.mkdirSync(path.dirname(opts.record), { recursive: true });
  fs.writeFileSync(opts.record, JSON.stringify(record, null, 2) + "\n");
  opts.log(`Shard ${record.shard}: cloned ${record.cloned.length} of ${entries.length}, ${record.failed.length} could not be.`);
  return record;
}

/** Clones one repository and checks out the commit to grade; a failure comes back as `error`. */
async function cloneOne(entry: RosterEntry, opts: CloneOptions): Promise<Cloned | CloneFailure> {
  const dest = path.join(opts.into, entry.folder);
  fs.rmSync(dest, { recursive: true, force: true });
  const git = (args: string[], cwd = dest) => execa("git", args, { cwd, env: gitEnv(opts.serverUrl, opts.token), reject: false, timeout: opts.timeoutMs, stdin: "ignore" });
  const url = `${opts.serverUrl.replace(/\/+$/, "")}/${entry.repository}.git`;
  const clone = await git(["clone", "--quiet", "--", url, dest], opts.into);
  if (clone.exitCode !== 0) return { ...entry, error: `could not clone ${entry.repository}: ${clone.timedOut ? `no answer within ${opts.timeoutMs / 1000} s` : gitComplaint(clone.stderr)}` };
  let commit = (await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])).stdout.trim();
  if (!commit) return { ...entry, error: `${entry.repository} has no commit on its default branch` };
  if (opts.deadline) {
    // --first-parent: the default branch's own history, not a commit of a branch merged into it later.
    const before = await git(["rev-list", "-n", "1", "--first-parent", `--before=@${Math.floor(opts.deadline.getTime() / 1000)}`, "HEAD"]);
    commit = before.stdout.trim();
    if (!commit) return { ...entry, error: `${entry.repository} has no commit on its default branch at or before the deadline ${opts.deadline.toISOString()}` };
    const checkout = await git(["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", commit]);
    if (checkout.exitCode !== 0) return { ...entry, error: `could not check out ${commit.slice(0, 12)} of ${entry.repository}: ${gitComplaint(checkout.stderr)}` };
  }
  const committedAt = new Date((await git(["log", "-1", "--format=%cI", commit])).stdout.trim()).toISOString();
  return { ...entry, commit, committedAt };
}

/**
 * Git's environment: never a prompt (a repository that needs credentials fails at once), and for an
 * http(s) server the token as `https://x-access-token:<token>@host/`, given through git's
 * configuration in the environment (url.<with token>.insteadOf <server>): it is in no command
 * line, and the clone's .git/config keeps the URL without it, so the graded code cannot read it.
 */
export function gitEnv(serverUrl: string, token: string | undefined): Record<string, string> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "", GCM_INTERACTIVE: "never", GIT_CONFIG_COUNT: "0" };
  const base = `${serverUrl.replace(/\/+$/, "")}/`;
  const server = URL.canParse(base) ? new URL(base) : undefined;
  if (!token || !server || !/^https?:$/.test(server.protocol)) return env;
  const withToken = `${server.protocol}//x-access-token:${encodeURIComponent(token)}@${server.host}${server.pathname}`;
  return { ...env, GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: `url.${withToken}.insteadOf`, GIT_CONFIG_VALUE_0: base };
}

/** What git said went wrong: its first "fatal:" or "error:" line (the rest is advice), else its last line. */
function gitComplaint(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const first = lines.find((l) => /^(fatal|error): /.test(l)) ?? lines.at(-1) ?? "git failed without a message";
  return first.replace(/^(fatal|error): /, "");
}

/** Runs `work` on every item, `jobs` at a time; the results keep the items' order. */
async function inTurns<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}
