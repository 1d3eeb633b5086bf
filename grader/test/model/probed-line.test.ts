// The probes between a shell line's programs (sandbox/interposition/external/probed-line.ts and
// probe.ts): where they go, that the line runs with them as it runs without them (its output, its
// branches, its status, the words of its errors), that a probe lists the folder as the grader
// does, and that no probe leaves anything behind.
import realChildProcess from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { replay } from "../../crash/replay.js";
import { externalOps, snapshot } from "../../sandbox/interposition/external-ops.js";
import { ProbeFolder } from "../../sandbox/interposition/external/probe.js";
import { probePlan } from "../../sandbox/interposition/external/probed-line.js";
import { gitEnv } from "../../sandbox/git/git-env.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { createRecordingChildProcess } from "../../sandbox/interposition/recording-exec.js";
import { layScenario, listTree, propertyTest, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();

function lay(): string {
  const root = layScenario(scratch.fresh("s"));
  fs.writeFileSync(path.join(root, "work/a"), "A");
  return root;
}

/** The index of the first program after each probe of `line`; [] when it runs without probes. */
const probesOf = (line: string) => probePlan({ script: line, cwd: "/w" })?.points.map((p) => p.next) ?? [];

test("a probe goes before each program that may change the folder after another one may have, never inside a pipeline, a background line, one that runs set or a shell started with -e", () => {
  expect(probesOf("rm a && ln -s b a")).toEqual([1]);
  expect(probesOf("cp a b && mkdir -p d && mv a d/")).toEqual([1, 2]);
  expect(probesOf("sed -i s/a/b/ a && sync")).toEqual([]);
  expect(probesOf("sync a && mv a b && sync && echo done")).toEqual([]);
  expect(probesOf("cat a > b && cat b | tee c ; mv c d")).toEqual([1, 3]);
  expect(probesOf("cp a b && cat b | sort -o c && ls | wc")).toEqual([1]);
  expect(probesOf("cp a b | mv b c")).toEqual([]);
  expect(probesOf("cp a b && cd d && mv b c")).toEqual([1]);
  expect(probesOf("cp a b & mv b c")).toEqual([]);
  expect(probesOf("set -e; cp a b; mv b c")).toEqual([]);
  expect(probePlan({ file: "sh", args: ["-c", "cp a b; mv b c"], cwd: "/w" })?.points.map((p) => p.next)).toEqual([1]);
  expect(probePlan({ file: "sh", args: ["-e", "-c", "cp a b; mv b c"], cwd: "/w" })).toBeNull();
  expect(probesOf("cp $a b && mv b c")).toEqual([]);
  expect(probesOf("cat <<EOF > b && mv b c\nx\nEOF")).toEqual([]);
});

/** What running `line` in a fresh scenario shows: its output, its status, and the folder it left. */
function outcome(line: string, run: (line: string, cwd: string) => Buffer): { stdout: string; status: number; stderr: string; folder: Record<string, string> } {
  const root = lay();
  let stdout = "";
  let status = 0;
  let stderr = "";
  try {
    stdout = run(line, path.join(root, "work")).toString();
  } catch (error) {
    const e = error as { status: number; stdout: Buffer; stderr: Buffer };
    [stdout, status, stderr] = [e.stdout.toString(), e.status, e.stderr.toString()];
  }
  return { stdout, status, stderr: stderr.split(root).join("<root>"), folder: listTree(root, { modes: false, root }) };
}

propertyTest(
  "a line runs with its probes as it runs without them: the same output, branches, status and folder",
  [fc.array(fc.tuple(fc.constantFrom("true", "false", "cp a b", "mv b c", "cat c", "echo x", "rm c", "ln -s a l", "mkdir d"), fc.constantFrom(" && ", " || ", " ; ", "\n")), { minLength: 2, maxLength: 5 })],
  (parts) => {
    const line = parts.map(([program, op], i) => (i < parts.length - 1 ? program + op : program)).join("");
    // The grader's environment for both: its fixed locale makes the programs' messages the same.
    const plain = outcome(line, (l, cwd) => realChildProcess.execSync(l, { cwd, stdio: "pipe", env: gitEnv(process.env) }));
    const probed = outcome(line, (l, cwd) => {
      const rec = new Recorder(path.dirname(cwd));
      return createRecordingChildProcess(() => rec).execSync(l, { cwd, stdio: "pipe" }) as Buffer;
    });
    expect(probed).toEqual(plain);
  },
  30,
);

test("the error of a line that fails names the line as the target wrote it, from execSync, sh -c and a shell spawnSync", () => {
  const line = "cp a b && mv missing c";
  expect(probesOf(line)).toEqual([1]);
  const root = lay();
  const rec = new Recorder(root);
  const cp = createRecordingChildProcess(() => rec);
  const cwd = path.join(root, "work");
  expect(() => cp.execSync(line, { cwd, stdio: "pipe" })).toThrow(/^Command failed: cp a b && mv missing c\nmv: /);
  expect(() => cp.execFileSync("sh", ["-c", line], { cwd, stdio: "pipe" })).toThrow(/^Command failed: sh -c cp a b && mv missing c\n/);
  const result = cp.spawnSync(line, { cwd, shell: true });
  expect(result.status).not.toBe(0);
  const error = (() => {
    try {
      cp.execSync(line, { cwd, stdio: "pipe" });
    } catch (e) {
      return e as Error;
    }
  })();
  expect(error!.stack).not.toMatch(/__grader_between_programs/);
});

test("a probe lists the folder as the grader does, keeps what a changed file held, and its folder is in no listing and gone after the line", () => {
  const root = lay();
  fs.symlinkSync("a", path.join(root, "work/l"));
  const probes = ProbeFolder.open(root, snapshot(root, { digests: true }))!;
  fs.writeFileSync(path.join(root, "work/b"), "B");
  realChildProcess.execFileSync("sh", ["-c", `${probes.shellFunction()}__grader_between_programs 1`]);
  const listed = probes.listing(1)!;
  expect([...listed]).toEqual([...snapshot(root, { digests: true })]);
  expect(probes.content(listed, "work/b").toString()).toBe("B");
  expect(fs.readdirSync(path.join(probes.dir, "content"))).toHaveLength(1); // a and l did not change
  probes.close();

  const rec = new Recorder(root);
  createRecordingChildProcess(() => rec).execSync("cp a c && mv c d", { cwd: path.join(root, "work") });
  expect(fs.readdirSync(root).sort()).toEqual(["cwd", "tmp", "work"]);
});

test("the programs before a probe that listed nothing are told with the step after it, and still replay", () => {
  const root = lay();
  const line = "cp a b && mv b c";
  const before = snapshot(root, { digests: true });
  const probes = ProbeFolder.open(root, before)!;
  realChildProcess.execSync(line, { cwd: path.join(root, "work") });
  let fd = 0;
  const ops = externalOps(root, before, snapshot(root, { digests: true }), `exec:${line}`, () => ++fd, { script: line, cwd: path.join(root, "work") }, { next: [1], probes });
  probes.close();
  const copy = lay();
  replay({ entries: ops, truncated: false }, { at: ops.length }, copy);
  expect(listTree(copy, { modes: false, root: copy })).toEqual(listTree(root, { modes: false, root }));
});
