// Nothing a student can read answers a deliverable. Every module of the student template that
// runs as code (grader/ and lab/, as `npm run export-student` writes them) is compiled on its own
// and every function it exports is probed, outside the grader, as each of the lab's functions:
// `firstDivergence` on histories whose answer is known by construction, `runTask` on a task of
// three steps, `recordHistory` with `loadHistory`, and `atomicCheckpoint` with `loadCheckpoint`.
// A file writer of the template is graded as an `atomicCheckpoint` and must earn no more than a
// plain `writeFileSync` does. `npm run export-student` runs the same probe (tools/export/answers.ts)
// and refuses a template in which it finds an answer. The probe is shown to find answers where there are some: the
// reference solution's files, compiled the same way, are found (and so was the grader's own
// session-diffing answer, `referenceDivergence`, which the template once shipped).
import { execa } from "execa";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import type { Report } from "../report/report.js";
import { answersIn, codeModules, probeModules, type Probed } from "../tools/export/answers.js";
import { templateFiles } from "../tools/export/template.js";

/** Where the wired checkpoints are graded. */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "template-wired-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("the student template answers no deliverable", () => {
  let probed: Probed[];
  let reference: Probed[];
  beforeAll(async () => {
    probed = await probeModules(REPO_ROOT, codeModules(templateFiles(REPO_ROOT).map((f) => f.path)));
    reference = await probeModules(REPO_ROOT, ["diff.ts", "runner.ts", "checkpoint.ts"].map((f) => path.relative(REPO_ROOT, path.join(SOLUTION_DIR, f))));
  }, 600_000);

  test("the probe finds the reference solution's answers: firstDivergence, recordHistory + loadHistory, runTask, atomicCheckpoint + loadCheckpoint", () => {
    const answers = reference.flatMap((p) => (p.found ?? []).map((f) => `${path.basename(p.module)}: ${f.name} answers ${f.answers}`));
    expect(answers).toEqual(expect.arrayContaining([
      "diff.ts: firstDivergence answers firstDivergence",
      "diff.ts: recordHistory + loadHistory answers recordHistory + loadHistory",
      "runner.ts: runTask answers runTask",
      "checkpoint.ts: atomicCheckpoint + loadCheckpoint answers atomicCheckpoint + loadCheckpoint",
    ]));
    // What the export refuses: the answers by themselves (a checkpoint pair is graded below instead).
    expect(answersIn(reference).map((a) => a.replace(/^solution\//, ""))).toEqual(["diff.ts: firstDivergence answers firstDivergence", "diff.ts: recordHistory + loadHistory answers recordHistory + loadHistory", "runner.ts: runTask answers runTask"]);
  });

  test("most of the template's modules load and are probed (a module that cannot load outside the grader answers nothing there either)", () => {
    const loaded = probed.filter((p) => p.loaded);
    expect(loaded.length).toBeGreaterThan(probed.length / 2);
    expect(loaded.reduce((n, p) => n + (p.functions ?? 0), 0)).toBeGreaterThan(300);
  });

  test("no exported function answers firstDivergence (or its step), runTask or recordHistory with loadHistory", () => {
    expect(answersIn(probed)).toEqual([]);
  });

  test("no file writer or writer-and-reader pair of the template, wired into checkpoint.ts, earns more of Phase 1 than writeFileSync in place does", async () => {
    const wired = probed.flatMap((p) =>
      (p.found ?? [])
        .filter((f) => f.answers === "a file writer" || f.answers === "atomicCheckpoint + loadCheckpoint")
        .map((f) => ({ module: p.module, names: f.name.split(" + "), pair: f.answers !== "a file writer" })),
    );
    const grade = async (name: string, body: string): Promise<number> => {
      const target = path.join(scratch, `wired-${name}`);
      fs.cpSync(SOLUTION_DIR, target, { recursive: true });
      fs.writeFileSync(path.join(target, "checkpoint.ts"), body);
      const json = path.join(target, "report.json");
      await execa("npm", ["run", "--silent", "grade", "--", "--target", target, "--only", "phase1", "--no-cache", "--json", json], { cwd: REPO_ROOT, reject: false });
      return (JSON.parse(fs.readFileSync(json, "utf8")) as Report).score;
    };
    const reader = `export function loadCheckpoint<T = unknown>(p: string): T | null {\n  if (!fs.existsSync(p)) return null;\n  return JSON.parse(fs.readFileSync(p, "utf8")) as T;\n}\n`;
    const plain = await grade("plain", `import fs from "node:fs";\nexport function atomicCheckpoint(p: string, s: unknown): void {\n  fs.writeFileSync(p, JSON.stringify(s));\n}\n${reader}`);
    expect(plain).toBeLessThan(20);
    const earned: Record<string, number> = {};
    for (const [i, w] of wired.entries()) {
      const from = path.relative(SOLUTION_DIR, path.join(REPO_ROOT, w.module)).replace(/\.ts$/, "");
      const [write, read] = w.names;
      const body = w.pair
        ? `export { ${write} as atomicCheckpoint, ${read} as loadCheckpoint } from "${from}";\n`
        : `import fs from "node:fs";\nimport { ${write} as write } from "${from}";\nexport function atomicCheckpoint(p: string, s: unknown): void {\n  write(p, JSON.stringify(s));\n}\n${reader}`;
      earned[`${w.module}: ${w.names.join(" + ")}`] = await grade(String(i), body);
    }
    expect(Object.entries(earned).filter(([, score]) => score > plain)).toEqual([]);
  }, 600_000);
});
