// Nothing a student can read answers a deliverable. Every module of the student template that
// runs as code (grader/ and lab/, as `npm run export-student` writes them) is compiled on its own
// and every function it exports is probed, outside the grader, as each of the lab's functions:
// `firstDivergence` on histories whose answer is known by construction, `runTask` on a task of
// three steps, `recordHistory` with `loadHistory`, and `atomicCheckpoint` with `loadCheckpoint`.
// A file writer of the template is graded as an `atomicCheckpoint` and must earn no more than a
// plain `writeFileSync` does. The probe is shown to find answers where there are some: the
// reference solution's files, compiled the same way, are found (and so was the grader's own
// session-diffing answer, `referenceDivergence`, which the template once shipped).
import { build } from "esbuild";
import { execa } from "execa";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import type { Report } from "../report/report.js";
import { templateFiles } from "../tools/export/template.js";


interface Probed {
  module: string;
  loaded: boolean;
  why?: string;
  functions?: number;
  found?: { name: string; answers: string }[];
  timedOut?: boolean;
}

/** A scratch folder every user may enter, for the probes that run as a user of their own. */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "template-answers-"));
fs.chmodSync(scratch, 0o755);
/** The probe, copied where a user of its own can read it (the repository is not). */
const PROBE = path.join(scratch, "probe.cjs");
fs.copyFileSync(path.join(REPO_ROOT, "grader/test/support/answers/probe.cjs"), PROBE);
fs.chmodSync(PROBE, 0o644);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Compiles `file` (relative to the repository) into one CommonJS file with its packages inside. */
async function compile(file: string, out: string): Promise<boolean> {
  try {
    await build({
      entryPoints: [path.join(REPO_ROOT, file)],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "silent",
      outfile: out,
      // The lab module as a student's file can reach it (a relative import of lab/task.ts); the
      // stand-ins' primitives exist only inside the grader's sandbox.
      alias: { "@lab/task": path.join(REPO_ROOT, "lab/task.ts") },
      external: ["esbuild", "@lab/stand-in", "playwright-core", "fsevents"],
      // A module that finds its files from where it is (grader/paths.ts) finds them.
      define: { "import.meta.url": JSON.stringify(pathToFileURL(path.join(REPO_ROOT, file)).href) },
    });
    fs.chmodSync(out, 0o644);
    return true;
  } catch {
    return false;
  }
}

/** Probes one compiled module in a process of its own (as nobody when root), within 15 s. */
async function probe(module: string, bundle: string): Promise<Probed> {
  const work = fs.mkdtempSync(path.join(scratch, "w-"));
  fs.chmodSync(work, 0o777);
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const r = await execa(process.execPath, [PROBE, bundle, work], { cwd: work, reject: false, timeout: 15_000, env: { PATH: process.env.PATH, HOME: work, TMPDIR: work }, extendEnv: false, stdin: "ignore", ...asNobody });
  if (r.timedOut) return { module, loaded: false, timedOut: true };
  const line = r.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return { module, ...(JSON.parse(line) as Omit<Probed, "module">) };
  } catch {
    return { module, loaded: false, why: `no probe result (exit ${r.exitCode}): ${r.stderr.split("\n")[0]}` };
  }
}

/** Compiles and probes each file, a few at a time. */
async function probeAll(files: string[]): Promise<Probed[]> {
  const out: Probed[] = [];
  const queue = [...files];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const bundle = path.join(scratch, `${file.replace(/[/.]/g, "_")}.cjs`);
        out.push((await compile(file, bundle)) ? { ...(await probe(file, bundle)) } : { module: file, loaded: false, why: "does not compile on its own" });
      }
    }),
  );
  return out.sort((a, b) => a.module.localeCompare(b.module));
}

describe("the student template answers no deliverable", () => {
  let probed: Probed[];
  let reference: Probed[];
  beforeAll(async () => {
    fs.chmodSync(scratch, 0o755);
    const modules = templateFiles(REPO_ROOT)
      .map((f) => f.path)
      .filter((p) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(p) && !p.endsWith(".d.ts") && (p.startsWith("grader/") || p.startsWith("lab/")));
    probed = await probeAll(modules);
    reference = await probeAll(["diff.ts", "runner.ts", "checkpoint.ts"].map((f) => path.relative(REPO_ROOT, path.join(SOLUTION_DIR, f))));
  }, 600_000);

  test("the probe finds the reference solution's answers: firstDivergence, recordHistory + loadHistory, runTask, atomicCheckpoint + loadCheckpoint", () => {
    const answers = reference.flatMap((p) => (p.found ?? []).map((f) => `${path.basename(p.module)}: ${f.name} answers ${f.answers}`));
    expect(answers).toEqual(expect.arrayContaining([
      "diff.ts: firstDivergence answers firstDivergence",
      "diff.ts: recordHistory + loadHistory answers recordHistory + loadHistory",
      "runner.ts: runTask answers runTask",
      "checkpoint.ts: atomicCheckpoint + loadCheckpoint answers atomicCheckpoint + loadCheckpoint",
    ]));
  });

  test("most of the template's modules load and are probed (a module that cannot load outside the grader answers nothing there either)", () => {
    const loaded = probed.filter((p) => p.loaded);
    expect(loaded.length).toBeGreaterThan(probed.length / 2);
    expect(loaded.reduce((n, p) => n + (p.functions ?? 0), 0)).toBeGreaterThan(300);
  });

  test("no exported function answers firstDivergence (or its step), runTask or recordHistory with loadHistory", () => {
    const answers = probed.flatMap((p) => (p.found ?? []).filter((f) => f.answers !== "a file writer" && f.answers !== "atomicCheckpoint + loadCheckpoint").map((f) => `${p.module}: ${f.name} answers ${f.answers}`));
    expect(answers).toEqual([]);
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
