// Compiles the files a deliverable runs, once per grade, before its checks start. A deliverable
// runs the student's own file for it; the files of earlier deliverables may come from the
// student or be the grader's stand-ins for them (grader/stand-ins/), so a bug is charged only
// where it lives. The reference solution is never among them: it is not code a student's
// process may hold.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { STAND_INS_DIR } from "../paths.js";
import { bundleTarget } from "../target/bundle.js";
import { chargedUntilSettled } from "../sandbox/messages/cpu-causes.js";
import { wholeFileStory } from "../report/whole-file.js";
import { buildName, leaveTrace, traceOfBuild, type Trace } from "../target/trace.js";
import type { GradeConfig } from "./config.js";

/** What a deliverable compiles: its own module, and the earlier modules it imports. */
export interface DeliverableFiles {
  /** The module name of the deliverable's own file ("runner" for runner.ts). */
  main: string;
  /** Modules of earlier deliverables it imports ("checkpoint"), tried as the student's and as the grader's stand-ins. */
  earlier?: string[];
}

/** One way of putting the files together, and how a message names it. */
export interface Variant {
  /** "" when every file is the student's, else "with the stand-in checkpoint.ts" (the grader's, grader/stand-ins/). */
  label: string;
  /** Bundle file per module name; the deliverable's own module is under `main`. */
  bundles: Record<string, string>;
  /** The modules whose files the grader's stand-ins replace in it ([] for the student's own files). */
  standIns: string[];
}

export interface PreparedTarget {
  /** Every variant that compiles, the student's own files first. */
  variants: Variant[];
  /** Why the target cannot be graded for this deliverable, in the student's words. */
  problem?: string;
  /** What that comes down to, the same for every submission ("runner.ts does not compile"): the failures' outcome. */
  problemOutcome?: string;
  /** For a file missing from the repository's starter/: the command that brings it back (the story ends with it). */
  problemRestore?: string;
  /** Why the student's own files could not be used together, when a variant with stand-ins could. */
  unusable?: string;
  /** The variants with stand-ins that do not compile although the student's own files do: a failure says it could not try them. */
  untried?: { label: string; problem: string }[];
  /** What its builds read of the target, every variant's (the verdict cache's key: target/trace.ts). */
  inputs: Trace;
}

/**
 * Bundles the deliverable's file in every combination of the student's earlier files and the
 * grader's stand-ins for them, into `bundles` (the grade's scratch by default). What the builds
 * read is left in the grade's scratch for the verdict cache (target/trace.ts).
 */
export async function prepareTarget(config: GradeConfig, files: DeliverableFiles, options: { bundles?: string } = {}): Promise<PreparedTarget> {
  return chargedUntilSettled("compile", () => prepare(config, files, options));
}

async function prepare(config: GradeConfig, files: DeliverableFiles, { bundles = config.work }: { bundles?: string }): Promise<PreparedTarget> {
  const variants: Variant[] = [];
  // A variant that compiles to the same code as one before it (a stand-in runner.ts imports no
  // checkpoint.ts, so the stand-in for that changes nothing) is not tried again: the same code gets the same verdict.
  const codes = new Set<string>();
  let problem: string | undefined;
  let problemOutcome: string | undefined;
  let problemRestore: string | undefined;
  const untried: { label: string; problem: string }[] = [];
  const read = new Set<string>();
  for (const standIns of combinations((files.earlier ?? []).filter(hasStandIn))) {
    const file = `${files.main}.ts`;
    const key = createHash("sha256").update(`${config.targetDir}:${file}:${standIns.join(",")}`).digest("hex").slice(0, 10);
    const result = await bundleTarget({ targetDir: config.targetDir, file, standIns, outFile: path.join(bundles, `${files.main}-${key}.cjs`) });
    for (const r of result.read) read.add(r);
    if (result.ok && !codes.has(result.code)) variants.push({ label: describe(standIns), bundles: { [files.main]: result.file }, standIns });
    if (result.ok) codes.add(result.code);
    else {
      const why = result.problem.startsWith(file) ? result.problem : `${file} ${result.problem}`;
      // The deliverable's own story when no variant compiles: the file named as the student typed the target.
      problemOutcome ??= `${file} ${result.problem === "is missing" ? "is missing" : "does not compile"}`;
      if (problem === undefined) ({ story: problem, restore: problemRestore } = wholeFileStory(config, file, result.problem));
      if (variants.length > 0) untried.push({ label: describe(standIns), problem: withStandIn(why) });
    }
  }
  const ownFilesWork = variants[0]?.label === "";
  const inputs = traceOfBuild(config.targetDir, [...read]);
  leaveTrace(config.work, buildName(files.main, files.earlier), inputs);
  return { variants, ...(variants.length === 0 ? { problem, problemOutcome, ...(problemRestore ? { problemRestore } : {}) } : {}), unusable: ownFilesWork ? undefined : problem, ...(untried.length > 0 ? { untried } : {}), inputs };
}

/** Whether the grader has a stand-in for the module (checkpoint, runner). */
function hasStandIn(name: string): boolean {
  return fs.existsSync(path.join(STAND_INS_DIR, `${name}.ts`));
}

/** Subsets of `names` from the empty one up, fewest reference files first. */
function combinations(names: string[]): string[][] {
  const out: string[][] = [[]];
  for (const name of [...names].reverse()) out.push(...out.map((set) => [name, ...set]));
  return out.sort((a, b) => a.length - b.length);
}

function describe(standIns: string[]): string {
  if (standIns.length === 0) return "";
  const files = standIns.map((n) => `${n}.ts`);
  return `with the stand-in ${files.length === 1 ? files[0] : `${files.slice(0, -1).join(", ")} and ${files.at(-1)}`}`;
}

/**
 * Why a variant with stand-ins did not compile, in the story's words: "with it, runner.ts does not
 * compile (runner.ts:5:10: No matching export in the stand-in checkpoint.ts ...)". The compiler
 * names a stand-in by its path from the folder the grade was started in ("grader/stand-ins/x.ts"
 * from the repository, "../../repo/grader/stand-ins/x.ts" from elsewhere): any such path is the
 * stand-in's name, wherever the grade started.
 */
export function withStandIn(problem: string): string {
  return problem.replace(/"?[^"\s]*grader\/stand-ins\/([\w.-]+\.ts)"?/g, "the stand-in $1").replace(/^(\S+) does not compile: (.*)$/s, "with it, $1 does not compile ($2)");
}
