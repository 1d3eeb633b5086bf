// Git in the crash engine: a command's effect, recorded as file operations, replays into exactly
// the folder git left; a crash inside `git commit` leaves what a killed git leaves; and the
// grader's environment makes git repeatable and blind to the machine's own configuration.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { commandSpans } from "../crash/commands.js";
import type { Trace, TraceEntry } from "../crash/model.js";
import { replay } from "../crash/replay.js";
import { externalOps, snapshot } from "../sandbox/interposition/external-ops.js";
import { GIT_IDENTITY, gitEnv } from "../sandbox/git/git-env.js";

let work: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  work = await dir({ unsafeCleanup: true });
});
afterEach(() => work.cleanup());

/** Runs git in `cwd` with the grader's environment; returns its output, or throws what it printed. */
function git(cwd: string, ceiling: string, ...args: string[]): string {
  const r = spawnSync("git", args, { cwd, env: gitEnv(process.env, ceiling), encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr.trim());
  return r.stdout.trim();
}

/** Runs commands in `root` (its work/ folder), recording each one's effect as the sandbox does. */
function recordCommands(root: string, commands: string[][]): Trace {
  const entries: TraceEntry[] = [];
  let fd = 1;
  for (const args of commands) {
    const before = snapshot(root);
    entries.push({ kind: "mark", label: `exec:git ${args.join(" ")}` });
    git(path.join(root, "work"), root, ...args);
    entries.push(...externalOps(root, before, snapshot(root), `exec:git ${args.join(" ")}`, () => fd++));
  }
  return { entries, truncated: false };
}

/** Every file and folder below `root` with its content, for comparing two folders. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const abs = path.join(d, name);
      const key = `${rel}${name}`;
      if (fs.statSync(abs).isDirectory()) (out[`${key}/`] = ""), walk(abs, `${key}/`);
      else out[key] = fs.readFileSync(abs, "base64");
    }
  };
  walk(root, "");
  return out;
}

function fresh(name: string): string {
  const root = path.join(work.path, name);
  fs.mkdirSync(path.join(root, "work"), { recursive: true });
  return root;
}

describe("git commands in a trace", () => {
  test("replaying a recorded init, add and commit rebuilds exactly the folder git left", () => {
    const root = fresh("real");
    fs.writeFileSync(path.join(root, "work/state.json"), '{"step":1}');
    const trace = recordCommands(root, [["init", "-q"], ["add", "state.json"], ["commit", "-q", "-m", "step 1"]]);
    const copy = fresh("copy");
    fs.writeFileSync(path.join(copy, "work/state.json"), '{"step":1}');
    replay(trace, { at: trace.entries.length }, copy);
    expect(tree(copy)).toEqual(tree(root));
    expect(git(path.join(copy, "work"), copy, "log", "--format=%s")).toBe("step 1");
  });

  test("a crash inside git commit leaves index.lock and objects no ref points at, and blocks git until the lock goes", () => {
    const root = fresh("real");
    fs.writeFileSync(path.join(root, "work/state.json"), '{"step":1}');
    git(path.join(root, "work"), root, "init", "-q");
    git(path.join(root, "work"), root, "add", "state.json");
    git(path.join(root, "work"), root, "commit", "-q", "-m", "step 1");
    // The same repository at step 1, where the crash state is rebuilt.
    const crashed = path.join(work.path, "crashed");
    fs.cpSync(root, crashed, { recursive: true });
    fs.writeFileSync(path.join(root, "work/state.json"), '{"step":2}');
    const trace = recordCommands(root, [["add", "state.json"], ["commit", "-q", "-m", "step 2"]]);
    const [add, commit] = commandSpans(trace);
    expect(add!.command).toBe("git add state.json");
    expect(commit!.killedInside).toBeGreaterThan(commit!.start);

    fs.writeFileSync(path.join(crashed, "work/state.json"), '{"step":2}');
    replay(trace, { at: commit!.killedInside! }, crashed);
    const repo = path.join(crashed, "work");
    expect(fs.existsSync(path.join(repo, ".git/index.lock"))).toBe(true);
    expect(git(repo, crashed, "log", "--format=%s")).toBe("step 1");
    const loose = git(repo, crashed, "count-objects", "-v").match(/^count: (\d+)/m)![1];
    expect(Number(loose)).toBe(3 + 3); // step 1 blob, tree, commit; step 2 blob (git add), tree and commit
    expect(() => git(repo, crashed, "reset", "--hard", "-q")).toThrow(/index\.lock': File exists/);
    fs.rmSync(path.join(repo, ".git/index.lock"));
    git(repo, crashed, "reset", "--hard", "-q");
    expect(fs.readFileSync(path.join(repo, "state.json"), "utf8")).toBe('{"step":1}');
  });
});

describe("the grader's git environment", () => {
  test("commits repeat from run to run, whoever the machine says the user is", () => {
    const home = path.join(work.path, "home");
    fs.mkdirSync(home);
    // What a Codespace or a developer's machine may hold: another name, signed commits.
    fs.writeFileSync(path.join(home, ".gitconfig"), "[user]\n\tname = Someone Else\n[commit]\n\tgpgsign = true\n");
    const hashes = ["a", "b"].map((name) => {
      const root = fresh(name);
      const repo = path.join(root, "work");
      fs.writeFileSync(path.join(repo, "state.json"), "{}");
      const r = (...args: string[]) => spawnSync("git", args, { cwd: repo, env: gitEnv({ ...process.env, HOME: home, GIT_AUTHOR_NAME: "Someone Else" }, root), encoding: "utf8" });
      for (const args of [["init", "-q"], ["add", "state.json"], ["commit", "-q", "-m", "step 1"]]) expect(r(...args).status).toBe(0);
      expect(r("log", "--format=%an <%ae> %aI").stdout.trim()).toBe(`${GIT_IDENTITY.name} <${GIT_IDENTITY.email}> ${GIT_IDENTITY.date}`);
      expect(fs.existsSync(path.join(repo, ".git/hooks"))).toBe(false);
      return r("rev-parse", "HEAD").stdout.trim();
    });
    expect(hashes[0]).toMatch(/^[0-9a-f]{40}$/);
    expect(hashes[1]).toBe(hashes[0]);
  });

  test("git never finds a repository above the scenario folder (the student's own clone)", () => {
    const outer = path.join(work.path, "clone");
    fs.mkdirSync(outer);
    git(outer, work.path, "init", "-q");
    const root = path.join(outer, "scenario");
    fs.mkdirSync(path.join(root, "work"), { recursive: true });
    expect(() => git(path.join(root, "work"), root, "rev-parse", "--show-toplevel")).toThrow(/not a git repository/);
  });
});
