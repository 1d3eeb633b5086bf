// The grader reads a git-backed run's history from the repository's files when they are plain
// (sandbox/git/plain-repository.ts), and asks git otherwise: random repositories made by git
// itself (commits with messages of many shapes, folders, modes, links, merges, a detached HEAD,
// packed objects, edits left uncommitted) read the same either way.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { gitEnv } from "../sandbox/git/git-env.js";
import { readGitHistory, readWithGit } from "../sandbox/git/git-history.js";
import { readPlainHistory } from "../sandbox/git/plain-repository.js";
import { propertyTest, scratchFolder } from "./support/model-fs.js";

const scratch = scratchFolder();

const FILES = ["state.json", "a.txt", "d/notes.txt", "d/e/deep.txt", "z/late.txt", "with space.txt", "ünï.txt"];
/** Message lines of the shapes git treats apart: blank, white space only, trailing white space, a carriage return, other scripts. */
const LINE = fc.constantFrom("step 1", "Step #2 of 10", "", "   ", "trailing  ", "crlf\r", "\ttabbed", "ünïcödé ✓", "a  b", "#not a comment");

type Action =
  | { kind: "write"; file: string; text: string }
  | { kind: "commit"; lines: string[] }
  | { kind: "emptyCommit" }
  | { kind: "executable"; file: string }
  | { kind: "link"; file: string }
  | { kind: "merge"; lines: string[] }
  | { kind: "detach" }
  | { kind: "pack" }
  | { kind: "remove"; file: string };

const actions: fc.Arbitrary<Action[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("write" as const), file: fc.constantFrom(...FILES), text: fc.string({ maxLength: 12 }) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("commit" as const), lines: fc.array(LINE, { minLength: 1, maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: "emptyCommit" as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("executable" as const), file: fc.constantFrom(...FILES) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("link" as const), file: fc.constantFrom(...FILES) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("merge" as const), lines: fc.array(LINE, { minLength: 1, maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: "detach" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "pack" as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), file: fc.constantFrom(...FILES) }) },
  ),
  { minLength: 1, maxLength: 12 },
);

/** Makes a repository in a new folder by doing `plan` with git; returns the folder. */
function makeRepository(plan: Action[]): string {
  const top = scratch.fresh("repo");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: top, env: gitEnv(process.env, top), stdio: "pipe" });
  git("init", "--quiet");
  let side = 0;
  for (const a of plan) {
    const file = "file" in a ? path.join(top, a.file) : "";
    switch (a.kind) {
      case "write":
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.rmSync(file, { force: true });
        fs.writeFileSync(file, a.text);
        break;
      case "commit":
        git("add", "--all");
        git("commit", "--quiet", "--allow-empty", "--allow-empty-message", "--cleanup=verbatim", "-m", a.lines.join("\n"));
        break;
      case "emptyCommit":
        git("commit", "--quiet", "--allow-empty", "--allow-empty-message", "--cleanup=verbatim", "-m", "");
        break;
      case "executable":
        if (fs.existsSync(file) && !fs.lstatSync(file).isSymbolicLink()) fs.chmodSync(file, 0o755);
        break;
      case "link":
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.rmSync(file, { force: true });
        fs.symlinkSync("state.json", file);
        break;
      case "merge": {
        // A side branch with a commit of its own, merged back: the first parent stays on this branch.
        if (!hasCommit(top)) break;
        const branch = `side${side++}`;
        git("branch", branch);
        git("checkout", "--quiet", branch);
        fs.writeFileSync(path.join(top, `${branch}.txt`), branch);
        git("add", "--all");
        git("commit", "--quiet", "-m", `on ${branch}`);
        git("checkout", "--quiet", "-");
        git("merge", "--quiet", "--no-ff", "--no-edit", "--cleanup=verbatim", "-m", ["merge", ...a.lines].join("\n"), branch);
        break;
      }
      case "detach":
        if (hasCommit(top)) git("checkout", "--quiet", "--detach");
        break;
      case "pack":
        git("gc", "--quiet");
        break;
      case "remove":
        fs.rmSync(file, { force: true });
        break;
    }
  }
  return top;
}

function hasCommit(top: string): boolean {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", "HEAD"], { cwd: top, env: gitEnv(process.env, top), stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

let readPlain = 0;
let tried = 0;

propertyTest<[Action[]]>(
  "a repository made by git reads the same from its files as from git log and git ls-tree (subjects, HEAD's files in git's order, and those the work tree holds otherwise)",
  [actions],
  (plan) => {
    const top = makeRepository(plan);
    tried++;
    const plain = readPlainHistory(top);
    if (plain) {
      readPlain++;
      // HEAD's files in git's own order, which is the order a message names them in.
      const listed = execFileSync("git", ["ls-tree", "-r", "-z", "HEAD"], { cwd: top, env: gitEnv(process.env, top), encoding: "utf8" });
      expect(plain.files.map((f) => `${f.blob} ${f.file}`)).toEqual(listed.split("\0").filter((l) => / blob /.test(l)).map((l) => l.replace(/^\d+ blob /, "").replace("\t", " ")));
    }
    expect(readGitHistory(top, top)).toEqual(readWithGit(top, top));
  },
  30,
  [[[{ kind: "write", file: "state.json", text: "{}" }, { kind: "commit", lines: ["", "  ", "step 1  ", "crlf\r", "", "body"] }]]],
);

test("most repositories of that property were read from their files, not by git (packed ones and those with no commit by git)", () => {
  // Runs after the property in this file: it saw each repository once.
  expect(tried).toBeGreaterThan(0);
  expect(readPlain / tried).toBeGreaterThan(0.3);
});

test("a repository whose objects are packed, or that has no commit, is not read from its files", () => {
  const packed = makeRepository([{ kind: "write", file: "state.json", text: "1" }, { kind: "commit", lines: ["step 1"] }, { kind: "pack" }]);
  expect(readPlainHistory(packed)).toBeNull();
  expect(readGitHistory(packed, packed).subjects).toEqual(["step 1"]);
  const unborn = makeRepository([]);
  expect(readPlainHistory(unborn)).toBeNull();
  expect(readGitHistory(unborn, unborn).problem).toBe("the repository has no commit");
});
