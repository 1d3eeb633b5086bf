// The grade is the same on each Node version courses grade with: the solution and the starter,
// each graded in full on the running Node and on every version support/kernel/node-versions.json
// pins (installed by install-nodes.mjs, which .ci/run runs), must give the same report: the same
// verdicts, points and messages, the same crash states, the same user for the submitted code;
// durations and what graded it (the Node, the grader's commit) aside. It runs with the
// submissions (`npm run test:submissions`): six full grades, one after the other.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { readReport } from "../report/read-report.js";
import type { Report } from "../report/report.js";
import { comparable } from "./support/grade.js";
import { INSTALL_COMMAND, nodesToCheck } from "./support/kernel/nodes.js";

const LAUNCH = path.join(REPO_ROOT, "grader/cli/launch.mjs");
const TARGETS = { solution: SOLUTION_DIR, starter: path.join(REPO_ROOT, "starter") };

interface Graded {
  version: string;
  exitCode: number;
  report: Report | null;
  stderr: string;
}

/** Grades `target` in full with the Node at `node`, as `npm run grade -- --no-cache` would run on it. */
async function gradeWith(node: string, target: string, out: string): Promise<Omit<Graded, "version">> {
  const json = path.join(out, `${path.basename(node)}-${path.basename(target)}.json`);
  const run = await execa(node, [LAUNCH, "--target", target, "--no-cache", "--json", json], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1" } });
  return { exitCode: run.exitCode ?? -1, report: fs.existsSync(json) ? readReport(json) : null, stderr: run.stderr };
}

/**
 * The report as two Node versions must agree on it: durations out, what graded it out (its Node,
 * and the grader's commit, which does not depend on the Node), and `version`, wherever a story
 * names the Node it ran on, one placeholder.
 */
function agreed(report: Report, version: string): unknown {
  return JSON.parse(JSON.stringify({ ...comparable(report), gradedWith: undefined }).replaceAll(version, "<node>"));
}

describe("the grade on each Node version", () => {
  const nodes = nodesToCheck();
  let scratch: { path: string; cleanup: () => Promise<void> };
  /** Each Node, runnable by the user a grade as root runs the submitted code as. */
  const binaries = new Map<string, string>();

  beforeAll(async () => {
    scratch = await dir({ unsafeCleanup: true, prefix: "node-versions-" });
    fs.chmodSync(scratch.path, 0o755);
    for (const { version, file } of nodes) {
      if (!file) continue;
      if (file === process.execPath) {
        binaries.set(version, file);
        continue;
      }
      // The pinned ones live inside the repository, which other users may not be let into: a grade
      // run from there would run the submitted code as the grader's own user, and say so.
      const copy = path.join(scratch.path, `node-${version}`);
      fs.copyFileSync(file, copy);
      fs.chmodSync(copy, 0o755);
      binaries.set(version, copy);
    }
  });
  afterAll(() => scratch?.cleanup());

  test.each(Object.entries(TARGETS))("%s: the same report on every Node version as on the running one", async (name, target) => {
    for (const { version, file } of nodes) expect(file, `Node ${version} is not installed: run ${INSTALL_COMMAND}`).not.toBeNull();
    const graded: Graded[] = [];
    // One after the other: a grade keeps two cores busy, and two at once push the slowest checks toward their time limits.
    for (const { version } of nodes) {
      const node = binaries.get(version)!;
      expect((await execa(node, ["--version"])).stdout).toBe(`v${version}`);
      graded.push({ version, ...(await gradeWith(node, target, scratch.path)) });
    }
    for (const g of graded) expect(g.report, `Node ${g.version} wrote no report (exit ${g.exitCode}):\n${g.stderr.slice(-2000)}`).not.toBeNull();
    const [running, ...others] = graded;
    // What each grade should be, so that reports alike in being wrong cannot pass.
    const expected = name === "solution" ? { score: 100, exitCode: 0 } : { score: 0, exitCode: 1 };
    expect({ score: running!.report!.score, exitCode: running!.exitCode }).toEqual(expected);
    // As root, the submitted code runs as a user of its own on every Node (see the copies above).
    const root = process.getuid?.() === 0;
    expect(running!.report!.targetUser).toMatchObject({ root, separate: root });
    for (const g of graded) expect(g.report!.gradedWith?.node, "the Node the report says graded it").toBe(`v${g.version}`);
    // Each version against the running one, all of them told when several differ.
    for (const other of others) {
      expect.soft(other.exitCode, `Node ${other.version}`).toBe(running!.exitCode);
      expect.soft(agreed(other.report!, other.version), `Node ${other.version} against Node ${running!.version}`).toEqual(agreed(running!.report!, running!.version));
    }
  });
});
