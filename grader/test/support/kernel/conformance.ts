// Runs the conformance driver under strace with one Node, and sets what the kernel saw beside what
// the recording fs recorded, case by case.
import { build } from "esbuild";
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../../paths.js";
import type { NamedCase } from "./cases.js";
import type { DriverResult } from "./driver.js";
import { meaningOf } from "./meaning.js";
import { straceOps, TRACED } from "./strace.js";

/** One case on one Node: what the kernel saw and what the recorder recorded, as meaningOf tells them, and each side's error. */
export interface CaseVerdict {
  id: string;
  kernel: string[];
  recorded: string[];
  kernelError?: string;
  recordedError?: string;
}

/** Bundles the driver (TypeScript, with the recording fs) into one file any Node can run. */
export async function bundleDriver(outDir: string): Promise<string> {
  const outfile = path.join(outDir, "driver.mjs");
  await build({
    entryPoints: [path.join(REPO_ROOT, "grader/test/support/kernel/driver.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "silent",
    // The bundle's own require, for the CommonJS inside it (fast-check is not in it: cases come as JSON).
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });
  return outfile;
}

/** Every case run by `node` under strace in `scratch`; returns the Node's version and each case's two sides. */
export async function runConformance(node: string, driver: string, cases: NamedCase[], scratch: string): Promise<{ version: string; verdicts: CaseVerdict[] }> {
  const root = path.join(scratch, "run");
  fs.mkdirSync(root, { recursive: true });
  const casesFile = path.join(scratch, "cases.json");
  const outFile = path.join(scratch, "out.json");
  const traceFile = path.join(scratch, "strace.txt");
  fs.writeFileSync(casesFile, JSON.stringify(cases));
  await execa("strace", ["-f", "-y", "-s", "0", "-qq", "-e", "signal=none", "-e", `trace=${TRACED.join(",")}`, "-o", traceFile, node, driver, casesFile, root, outFile]);
  const result = JSON.parse(fs.readFileSync(outFile, "utf8")) as DriverResult;
  const kernel = straceOps(fs.readFileSync(traceFile, "utf8"), path.join(root, "real"));
  const verdicts = result.cases.map(({ id, real, recorded }) => {
    // mkdtemp's random name, the same on both sides.
    const named = (lines: string[], made?: string) => (made ? lines.map((l) => l.replaceAll(made, "tmp-XXXXXX")) : lines);
    return {
      id,
      kernel: named(meaningOf(kernel.get(id) ?? []), real.made),
      recorded: named(meaningOf(recorded.ops), recorded.made),
      kernelError: real.error,
      recordedError: recorded.error,
    };
  });
  return { version: result.node, verdicts };
}
