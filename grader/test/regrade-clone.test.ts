// `regrade plan` listing an organisation and `regrade clone` bringing a shard's repositories, both
// against a local stand-in for GitHub (the API's paginated listing, git over HTTP with the token
// required): the listing follows every page and keeps the assignment's repositories; a clone
// checks out the last commit at or before the deadline; a repository that cannot be cloned, or has
// no commit in time, is recorded with its reason; the token reaches the server and nothing else.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { cloneShard, gitEnv, type CloneRecord } from "../tools/regrade/clone.js";
import { classroomRepositories } from "../tools/regrade/org-repos.js";
import { plan } from "../tools/regrade/plan.js";
import type { Roster } from "../tools/regrade/roster.js";
import { headOf, makeStudentRepo } from "./support/class-repos.js";
import { startGitHubStandIn, type GitHubStandIn } from "./support/github-stand-in.js";

const TOKEN = "github_pat_11ABCDEFG0regradeTestToken";
const DEADLINE = new Date("2026-03-15T23:59:00Z");
const file = (name: string, text: string) => (work: string) => fs.writeFileSync(path.join(work, name), text);

describe("regrade plan and clone, against a stand-in for GitHub", () => {
  let tmp: { path: string; cleanup: () => Promise<void> };
  let github: GitHubStandIn;
  const logged: string[] = [];
  const log = (line: string) => void logged.push(line);

  beforeAll(async () => {
    tmp = await dir({ unsafeCleanup: true, prefix: "regrade-clone-" });
    const bare = path.join(tmp.path, "server");
    // lab-alice: a commit before the deadline, one exactly at it, one after; lab-bob: only after.
    await makeStudentRepo(bare, "course/lab-alice", [
      { date: "2026-03-01T10:00:00Z", message: "early", write: file("work.txt", "early\n") },
      { date: "2026-03-15T23:59:00Z", message: "on time", write: file("work.txt", "on time\n") },
      { date: "2026-03-16T08:00:00Z", message: "late", write: file("work.txt", "late\n") },
    ]);
    await makeStudentRepo(bare, "course/lab-bob", [{ date: "2026-03-20T10:00:00Z", message: "late", write: file("work.txt", "late\n") }]);
    // The API lists 7 repositories, 3 a page: the assignment's four, the template, another course's, and one named only "lab-".
    const listed = ["lab-template-x", "lab-alice", "other-alice", "lab-bob", "lab-", "lab-carol", "lab-dave"];
    github = await startGitHubStandIn({ token: TOKEN, orgs: { course: listed }, bareRoot: bare, pageSize: 3 });
  });
  afterAll(async () => {
    await github?.close();
    await tmp?.cleanup();
  });

  test("the organisation's listing follows every page and keeps <prefix>-<name> repositories, with the token as Bearer", async () => {
    const repositories = await classroomRepositories({ apiUrl: github.apiUrl, org: "course", prefix: "lab", token: TOKEN });
    expect(repositories).toEqual(["course/lab-template-x", "course/lab-alice", "course/lab-bob", "course/lab-carol", "course/lab-dave"]);
    const api = github.requests.filter((r) => r.url.startsWith("/api/"));
    expect(api.map((r) => [r.url, r.authorized])).toEqual([1, 2, 3].map((page) => [`/api/orgs/course/repos?per_page=100${page === 1 ? "&type=all" : `&page=${page}`}`, true]));
  });

  test("a listing the API refuses says what was asked, what came back and what to check, never the token", async () => {
    const refused = async (org: string, token: string) => classroomRepositories({ apiUrl: github.apiUrl, org, prefix: "lab", token }).then(() => "", (e: Error) => e.message);
    expect(await refused("course", "wrong")).toBe(`listing the repositories of course: GET ${github.apiUrl}/orgs/course/repos answered 401 "Bad credentials"; expected 200 (is the secret CLASSROOM_TOKEN set, and the token not expired?)`);
    const missing = await refused("nobody", TOKEN);
    expect(missing).toBe(`listing the repositories of nobody: GET ${github.apiUrl}/orgs/nobody/repos answered 404 "Not Found"; expected 200 (is the organisation's name right, and may the token see it?)`);
    expect(missing).not.toContain(TOKEN);
  });

  test("plan resolves the organisation into a roster and a matrix of no more shards than students", async () => {
    const out = path.join(tmp.path, "plan/roster.json");
    const githubOutput = path.join(tmp.path, "plan/output");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const roster = await plan({ source: { kind: "org", org: "course", prefix: "lab" }, shards: 10, out, token: TOKEN, apiUrl: github.apiUrl, githubOutput, log });
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual(roster);
    expect(roster.shards).toBe(5);
    expect(roster.entries.map((e) => e.folder)).toEqual(["lab-alice", "lab-bob", "lab-carol", "lab-dave", "lab-template-x"]);
    expect(fs.readFileSync(githubOutput, "utf8")).toBe('shards=5\nmatrix={"shard":[1,2,3,4,5]}\n');
    await expect(plan({ source: { kind: "org", org: "course", prefix: "lab" }, shards: 2, out, apiUrl: github.apiUrl, log })).rejects.toThrow("listing the repositories of course needs a token: set the secret CLASSROOM_TOKEN");
    await expect(plan({ source: { kind: "org", org: "course", prefix: "nolab" }, shards: 2, out, token: TOKEN, apiUrl: github.apiUrl, log })).rejects.toThrow("the repositories of course named nolab-* holds no repository; expected at least one student's");
  });

  test("clone: the last commit at or before the deadline; no commit in time, a missing repository and a refused token are recorded with their reasons; the token is nowhere but on the wire", async () => {
    const roster: Roster = { rosterVersion: 1, source: "test", shards: 1, entries: ["lab-alice", "lab-bob", "lab-carol"].map((folder) => ({ repository: `course/${folder}`, folder })) };
    const into = path.join(tmp.path, "class");
    const record = path.join(tmp.path, "out/clones.json");
    const before = github.requests.length;
    const result = await cloneShard({ roster, shard: { index: 1, count: 1 }, into, record, deadline: DEADLINE, serverUrl: github.url, token: TOKEN, timeoutMs: 60_000, log });
    expect(JSON.parse(fs.readFileSync(record, "utf8"))).toEqual(result);
    expect(result.cloned).toEqual([{ repository: "course/lab-alice", folder: "lab-alice", commit: (await headOf(path.join(into, "lab-alice"))).commit, committedAt: "2026-03-15T23:59:00.000Z" }]);
    expect((await headOf(path.join(into, "lab-alice"))).subject).toBe("on time");
    expect(fs.readFileSync(path.join(into, "lab-alice/work.txt"), "utf8")).toBe("on time\n");
    expect(result.failed).toEqual([
      { repository: "course/lab-bob", folder: "lab-bob", error: "course/lab-bob has no commit on its default branch at or before the deadline 2026-03-15T23:59:00.000Z" },
      { repository: "course/lab-carol", folder: "lab-carol", error: `could not clone course/lab-carol: repository '${github.url}/course/lab-carol.git/' not found` },
    ]);
    expect(fs.readdirSync(into)).toEqual(["lab-alice"]);
    // Git asked without the token first, was challenged, and sent it.
    expect(github.requests.slice(before).some((r) => r.authorized)).toBe(true);
    expect(fs.readFileSync(path.join(into, "lab-alice/.git/config"), "utf8")).not.toContain(TOKEN);
    expect([...logged, fs.readFileSync(record, "utf8")].join("\n")).not.toContain(TOKEN);

    const refused = await cloneShard({ roster: { ...roster, entries: roster.entries.slice(0, 1) }, shard: { index: 1, count: 1 }, into: path.join(tmp.path, "refused"), record, serverUrl: github.url, token: "not-the-token", timeoutMs: 60_000, log });
    expect(refused.failed).toEqual([{ repository: "course/lab-alice", folder: "lab-alice", error: `could not clone course/lab-alice: Authentication failed for '${github.url}/course/lab-alice.git/'` }]);
  });

  test("git gets the token only for an http(s) server, through its environment, never on a command line", () => {
    expect(gitEnv("https://github.com", "t0k")).toMatchObject({ GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "url.https://x-access-token:t0k@github.com/.insteadOf", GIT_CONFIG_VALUE_0: "https://github.com/" });
    expect(gitEnv("https://ghe.example.org/", undefined)).toMatchObject({ GIT_CONFIG_COUNT: "0" });
    expect(gitEnv("file:///srv/git", "t0k")).toMatchObject({ GIT_CONFIG_COUNT: "0" });
    expect(JSON.stringify(gitEnv("file:///srv/git", "t0k"))).not.toContain("t0k");
  });

  test("regrade clone refuses a shard count other than the roster's, and exits 2", async () => {
    const roster = path.join(tmp.path, "two.json");
    fs.writeFileSync(roster, JSON.stringify({ rosterVersion: 1, source: "t", shards: 2, entries: [] } satisfies Roster));
    const run = await execa("npm", ["run", "--silent", "regrade", "--", "clone", "--roster", roster, "--shard", "1/3", "--into", tmp.path, "--record", path.join(tmp.path, "r.json")], { cwd: REPO_ROOT, reject: false });
    expect([run.exitCode, run.stderr]).toEqual([2, "regrade clone: --shard 1/3 does not match the roster, which plan split into 2 shards"]);
    const record: CloneRecord | undefined = fs.existsSync(path.join(tmp.path, "r.json")) ? JSON.parse(fs.readFileSync(path.join(tmp.path, "r.json"), "utf8")) : undefined;
    expect(record).toBeUndefined();
  });
});
