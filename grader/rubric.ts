// The rubric: deliverables, their checks and weights, and the default seed (grader/rubric.json).
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./paths.js";
import { DEFAULT_LIMITS, type Limits } from "./sandbox/messages/limits.js";

export interface RubricCheck {
  id: string;
  title: string;
  points: number;
  requires?: string[];
}

export interface RubricDeliverable {
  id: string;
  title: string;
  kind: "core" | "bonus";
  enabled: boolean;
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
  if (!Number.isSafeInteger(rubric.seed)) throw new Error(`rubric: "seed" must be an integer, got ${JSON.stringify(rubric.seed)}`);
  for (const [key, value] of Object.entries(rubric.limits ?? {})) {
    if (!(key in DEFAULT_LIMITS)) throw new Error(`rubric: "limits" has an unknown key ${JSON.stringify(key)}; known: ${Object.keys(DEFAULT_LIMITS).join(", ")}`);
    if (!(typeof value === "number" && value > 0)) throw new Error(`rubric: "limits.${key}" must be a positive number, got ${JSON.stringify(value)}`);
  }
  const ids = new Set<string>();
  for (const d of rubric.deliverables) {
    if (d.kind !== "core" && d.kind !== "bonus") throw new Error(`rubric: deliverable ${d.id} has kind ${JSON.stringify(d.kind)}, expected "core" or "bonus"`);
    for (const c of d.checks) {
      if (!c.id.startsWith(`${d.id}.`)) throw new Error(`rubric: check ${c.id} must start with "${d.id}."`);
      if (!(c.points >= 0)) throw new Error(`rubric: check ${c.id} needs "points" >= 0, got ${JSON.stringify(c.points)}`);
      ids.add(c.id);
    }
  }
  for (const d of rubric.deliverables)
    for (const c of d.checks)
      for (const r of c.requires ?? []) if (!ids.has(r)) throw new Error(`rubric: check ${c.id} requires unknown check ${r}`);
  return { ...rubric, limits: { ...DEFAULT_LIMITS, ...rubric.limits } };
}

/** Finds a check of the rubric by id. */
export function rubricCheck(rubric: Rubric, id: string): RubricCheck | undefined {
  for (const d of rubric.deliverables) for (const c of d.checks) if (c.id === id) return c;
  return undefined;
}
