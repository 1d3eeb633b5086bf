// Whether a module of the student template answers a deliverable. Each module is compiled on its
// own, as a student's file could import it, and every function it exports is probed outside the
// grader (probe-answers.cjs), in a process of its own, as nobody where this runs as root: it calls
// functions it knows nothing of. `npm run export-student` refuses a template in which the probe
// finds an answer, and grader/test/template-answers.test.ts shows it finds the reference's.
import { build } from "esbuild";
import { execa } from "execa";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** What the probe found in one module. */
export interface Probed {
  /** Relative to the repository: "grader/checks/stretch-diff/divergence.ts". */
  module: string;
  loaded: boolean;
  why?: string;
  functions?: number;
  /** The exports (or pairs of them) that do the work of one of the lab's functions. */
  found?: { name: string; answers: string }[];
  timedOut?: boolean;
}

/** What the probe reports but is no answer by itself: a file writer, a writer-and-reader pair (grade them as a checkpoint to know). */
export const NOT_ANSWERS_BY_THEMSELVES = new Set(["a file writer", "atomicCheckpoint + loadCheckpoint"]);

/** The files of a template that run as code: the grader's and the lab's modules. */
export function codeModules(paths: string[]): string[] {
  return paths.filter((p) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(p) && !p.endsWith(".d.ts") && (p.startsWith("grader/") || p.startsWith("lab/")));
}

/** Compiles and probes each of `modules` (relative to `root`), a few at a time. */
export async function probeModules(root: string, modules: string[]): Promise<Probed[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "template-answers-"));
  try {
    // Every user may enter it: the probes run as nobody where this runs as root.
    fs.chmodSync(scratch, 0o755);
    const probe = path.join(scratch, "probe.cjs");
    fs.copyFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "probe-answers.cjs"), probe);
    fs.chmodSync(probe, 0o644);
    const out: Probed[] = [];
    const queue = [...modules];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let module = queue.shift(); module !== undefined; module = queue.shift()) {
          const bundle = path.join(scratch, `${module.replace(/[/.]/g, "_")}.cjs`);
          out.push((await compile(root, module, bundle)) ? await run(probe, module, bundle, scratch) : { module, loaded: false, why: "does not compile on its own" });
        }
      }),
    );
    return out.sort((a, b) => a.module.localeCompare(b.module));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** "grader/x.ts: f answers firstDivergence" for each answer found, writers and their pairs aside. */
export function answersIn(probed: Probed[]): string[] {
  return probed.flatMap((p) => (p.found ?? []).filter((f) => !NOT_ANSWERS_BY_THEMSELVES.has(f.answers)).map((f) => `${p.module}: ${f.name} answers ${f.answers}`));
}

/** Compiles `module` into one CommonJS file with its packages inside; false when it does not compile on its own. */
async function compile(root: string, module: string, out: string): Promise<boolean> {
  try {
    await build({
      entryPoints: [path.join(root, module)],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "silent",
      outfile: out,
      // The lab module as a student's file can reach it (a relative import of lab/task.ts); the
      // stand-ins' primitives exist only inside the grader's sandbox.
      alias: { "@lab/task": path.join(root, "lab/task.ts") },
      external: ["esbuild", "@lab/stand-in", "playwright-core", "fsevents"],
      // A module that finds its files from where it is (grader/paths.ts) finds them.
      define: { "import.meta.url": JSON.stringify(pathToFileURL(path.join(root, module)).href) },
    });
    fs.chmodSync(out, 0o644);
    return true;
  } catch {
    return false;
  }
}

/** Probes one compiled module in a process of its own (as nobody when root), within 15 s. */
async function run(probe: string, module: string, bundle: string, scratch: string): Promise<Probed> {
  const work = fs.mkdtempSync(path.join(scratch, "w-"));
  fs.chmodSync(work, 0o777);
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const r = await execa(process.execPath, [probe, bundle, work], { cwd: work, reject: false, timeout: 15_000, env: { PATH: process.env.PATH, HOME: work, TMPDIR: work }, extendEnv: false, stdin: "ignore", ...asNobody });
  if (r.timedOut) return { module, loaded: false, timedOut: true };
  const line = r.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return { module, ...(JSON.parse(line) as Omit<Probed, "module">) };
  } catch {
    return { module, loaded: false, why: `no probe result (exit ${r.exitCode}): ${r.stderr.split("\n")[0]}` };
  }
}
