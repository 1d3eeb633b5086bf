// The lab's manifest (grader/rubric.json, checked against grader/rubric.schema.json): each
// deliverable, the student's file it grades and the earlier deliverables it builds on, its checks
// with their points and requirements, and the default seed. Whatever names a deliverable's files
// (the grader, its tests, the README's tables) reads them from here.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./paths.js";
import { assertMatchesSchema } from "./schemas.js";
import { DEFAULT_LIMITS, type Limits } from "./sandbox/messages/limits.js";

export interface RubricCheck {
  id: string;
  title: string;
  points: number;
  /** What the check asks of the student's code, in Markdown (the README's "what it asks"). */
  asks: string;
  requires?: string[];
}

export interface RubricDeliverable {
  id: string;
  title: string;
  kind: "core" | "bonus";
  enabled: boolean;
  /** The student's file it grades ("runner.ts"); the reference has the same name in solution/. */
  file: string;
  /** Earlier deliverables whose files it runs with ("phase1"): the student's, and the reference's while those fail. */
  buildsOn?: string[];
  /** Points of a deliverable whose checks are not written yet. */
  points?: number;
  checks: RubricCheck[];
}

export interface Rubric {
  seed: number;
  deliverables: RubricDeliverable[];
  /** Limits on the target's code; each one missing from the file is the default. */
  limits: Limits;
}

export const DEFAULT_RUBRIC = path.join(REPO_ROOT, "grader/rubric.json");

/** Reads and validates a rubric file; errors name the field that is wrong. */
export function loadRubric(file = DEFAULT_RUBRIC): Rubric {
  const rubric = JSON.parse(fs.readFileSync(file, "utf8")) as Omit<Rubric, "limits"> & { limits?: Partial<Limits> };
  assertMatchesSchema("rubric", rubric, "rubric");
  const ids = new Set<string>();
  const deliverables = new Set(rubric.deliverables.map((d) => d.id));
  for (const d of rubric.deliverables) {
    for (const earlier of d.buildsOn ?? []) {
      if (!deliverables.has(earlier)) throw new Error(`rubric: deliverable ${d.id} builds on unknown deliverable ${earlier}`);
      if (earlier === d.id || rubric.deliverables.find((e) => e.id === earlier)!.file === d.file) throw new Error(`rubric: deliverable ${d.id} builds on ${earlier}, which grades the same file ${d.file}`);
    }
    for (const c of d.checks) {
      if (!c.id.startsWith(`${d.id}.`)) throw new Error(`rubric: check ${c.id} must start with "${d.id}."`);
      if (ids.has(c.id)) throw new Error(`rubric: check ${c.id} is listed twice`);
      ids.add(c.id);
    }
  }
  for (const d of rubric.deliverables)
    for (const c of d.checks)
      for (const r of c.requires ?? []) if (!ids.has(r)) throw new Error(`rubric: check ${c.id} requires unknown check ${r}`);
  return { ...rubric, limits: { ...DEFAULT_LIMITS, ...rubric.limits } };
}

/** The deliverable `id` of the rubric; throws naming it when there is none. */
export function rubricDeliverable(rubric: Rubric, id: string): RubricDeliverable {
  const deliverable = rubric.deliverables.find((d) => d.id === id);
  if (!deliverable) throw new Error(`rubric: there is no deliverable ${id}; known: ${rubric.deliverables.map((d) => d.id).join(", ")}`);
  return deliverable;
}

/** The module names a deliverable compiles: its own file's, and those of the deliverables it builds on ("runner", ["checkpoint"]). */
export function deliverableModules(rubric: Rubric, id: string): { main: string; earlier: string[] } {
  const moduleOf = (d: RubricDeliverable) => d.file.replace(/\.ts$/, "");
  const deliverable = rubricDeliverable(rubric, id);
  return { main: moduleOf(deliverable), earlier: (deliverable.buildsOn ?? []).map((e) => moduleOf(rubricDeliverable(rubric, e))) };
}

/** A deliverable's points: its checks', or the manifest's own figure for one with no checks yet. */
export function deliverablePoints(d: RubricDeliverable): number {
  return d.checks.length > 0 ? d.checks.reduce((n, c) => n + c.points, 0) : d.points ?? 0;
}

/** The deliverables that grade the student's file `file` ("checkpoint.ts"), in the rubric's order. */
export function deliverablesOfFile(rubric: Rubric, file: string): string[] {
  return rubric.deliverables.filter((d) => d.file === file).map((d) => d.id);
}

/** The manifest and the grader's code disagree: said in their terms, without a stack. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

/**
 * Throws unless the checks the grader's code defines for a deliverable are exactly the manifest's:
 * a check in one and not the other would be graded without points, or never run, without a word.
 */
export function assertChecksMatchManifest(rubric: Rubric, id: string, definedIds: string[]): void {
  const listed = rubricDeliverable(rubric, id).checks.map((c) => c.id);
  const unlisted = definedIds.filter((c) => !listed.includes(c));
  const undefinedIds = listed.filter((c) => !definedIds.includes(c));
  const problems = [
    ...unlisted.map((c) => `the grader defines the check ${c}, which the rubric does not list under ${id}: add it (with "points": 0 to leave it unscored)`),
    ...undefinedIds.map((c) => `the rubric lists the check ${c}, which the grader does not define (grader/checks/${id}/): remove it, or mind its spelling`),
  ];
  if (problems.length > 0) throw new ManifestError(problems.join("\n"));
}

/** Finds a check of the rubric by id. */
export function rubricCheck(rubric: Rubric, id: string): RubricCheck | undefined {
  for (const d of rubric.deliverables) for (const c of d.checks) if (c.id === id) return c;
  return undefined;
}
