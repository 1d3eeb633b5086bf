// What a report records of what graded it: the Node version, and the grader's commit from
// grader/BUILD.json (a Gradescope zip, a student template) before the checkout's own git, dirty
// when the grader's files differ from that commit.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterEach, describe, expect, test } from "vitest";
import { BUILD_FILE, buildFileText, gradedWith, gradedWithLine, readBuildFile } from "../report/graded-with.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A git repository holding a grader file, a grader test and a lab file, all committed; returns its folder and commit. */
async function checkout(): Promise<{ root: string; commit: string }> {
  const d = await dir({ unsafeCleanup: true, prefix: "graded-with-" });
  cleanups.push(d.cleanup);
  const root = d.path;
  const files: [string, string][] = [["grader/rubric.json", "{}\n"], ["grader/test/a.test.ts", "// a test\n"], ["lab/task.ts", "export {};\n"], ["README.md", "# lab\n"]];
  for (const [file, text] of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const git = (...args: string[]) => execa("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], { cwd: root });
  await git("init", "-q");
  await git("add", ".");
  await git("commit", "-q", "-m", "grader");
  return { root, commit: (await git("rev-parse", "HEAD")).stdout.trim() };
}

describe("what graded a report", () => {
  test("in a checkout: git's commit, dirty only once a grader or lab file differs from it (a test, the README or a new file elsewhere do not count)", async () => {
    const { root, commit } = await checkout();
    expect(gradedWith(root)).toEqual({ node: process.version, commit, dirty: false });
    fs.appendFileSync(path.join(root, "grader/test/a.test.ts"), "// more\n");
    fs.appendFileSync(path.join(root, "README.md"), "more\n");
    fs.writeFileSync(path.join(root, "notes.txt"), "x\n");
    expect(gradedWith(root)).toEqual({ node: process.version, commit, dirty: false });
    fs.writeFileSync(path.join(root, "grader/new-check.ts"), "export {};\n");
    expect(gradedWith(root)).toEqual({ node: process.version, commit, dirty: true });
    fs.rmSync(path.join(root, "grader/new-check.ts"));
    fs.appendFileSync(path.join(root, "lab/task.ts"), "// changed\n");
    expect(gradedWith(root).dirty).toBe(true);
  });

  test("BUILD.json comes before git: a student's clone of the template records the commit the template was made from", async () => {
    const { root, commit } = await checkout();
    const built = "0123456789abcdef0123456789abcdef01234567";
    fs.writeFileSync(path.join(root, BUILD_FILE), buildFileText({ commit: built, dirty: true }, "npm run export-student"));
    expect(readBuildFile(root)).toEqual({ commit: built, dirty: true });
    expect(gradedWith(root)).toEqual({ node: process.version, commit: built, dirty: true });
    // One this grader did not write is not believed: the checkout's own commit again.
    fs.writeFileSync(path.join(root, BUILD_FILE), JSON.stringify({ buildVersion: 1, commit: "HEAD", dirty: false }));
    expect(gradedWith(root)).toEqual({ node: process.version, commit, dirty: true }); // the BUILD.json it holds is a grader file not committed
  });

  test("with neither: the Node version alone, also for a folder inside another repository", async () => {
    const bare = await dir({ unsafeCleanup: true, prefix: "graded-with-" });
    cleanups.push(bare.cleanup);
    expect(gradedWith(bare.path)).toEqual({ node: process.version });
    const { root } = await checkout();
    expect(gradedWith(path.join(root, "lab"))).toEqual({ node: process.version });
  });

  test("the small print names the Node version and the short commit, and says when the grader had uncommitted changes", () => {
    const commit = "f7eee31b2c0ffee0000000000000000000000000";
    expect(gradedWithLine({ node: "v22.12.0", commit, dirty: false })).toBe("Graded with Node v22.12.0, grader f7eee31.");
    expect(gradedWithLine({ node: "v22.12.0", commit, dirty: true })).toBe("Graded with Node v22.12.0, grader f7eee31 (uncommitted changes).");
    expect(gradedWithLine({ node: "v20.20.2" })).toBe("Graded with Node v20.20.2.");
  });
});
