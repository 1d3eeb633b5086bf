// What one grade run needs to know, handed from the command line to every check.
import type { Rubric } from "../rubric.js";
import type { TargetIdentity } from "../sandbox/identity/target-user.js";

export interface GradeConfig {
  /** Absolute path of the target folder. */
  targetDir: string;
  /** How the target is named in replay commands ("" for the default, starter/). */
  targetArg: string;
  /** A scratch folder for bundles and sandboxes, removed after the grade. */
  work: string;
  /** The sandbox host bundle. */
  hostFile: string;
  /** A scratch folder on another file system than `work`, for the targets' TMPDIR (see HostConfig). */
  tmpBase?: string;
  seed: number;
  /** Deliverable or check ids to run; empty means all enabled ones. */
  only: string[];
  /** A fast-check path to replay one counterexample of the check `replayCheck`. */
  replayPath?: string;
  replayCheck?: string;
  rubric: Rubric;
  /** Who submitted code runs as (a user of its own when the grade runs as root); the grader's own user when absent. */
  identity?: TargetIdentity;
  /** Checks and measurements whose results this grade took from the verdict cache: not run (their deliverable runs only what was not found). */
  takenFromCache?: string[];
}

declare module "vitest" {
  export interface ProvidedContext {
    grade: GradeConfig;
  }
}

/** True when `checkId` is selected by `only` (empty selects every check). */
export function isSelected(config: Pick<GradeConfig, "only">, checkId: string): boolean {
  if (config.only.length === 0) return true;
  const deliverable = checkId.split(".")[0];
  return config.only.some((id) => id === checkId || id === deliverable);
}

/**
 * The command that grades `checkId` of this grade's target and seed again, or with `replayPath`
 * exactly one case of it (with the student's own files). Graded again, a check of a deliverable
 * that builds on others is graded with them, as the whole grade does: whether it is tried with a
 * stand-in for an earlier file depends on their verdicts (verdict-board.ts).
 */
export function checkCommand(config: Pick<GradeConfig, "targetArg" | "seed"> & { rubric?: Pick<GradeConfig["rubric"], "deliverables"> }, checkId: string, replayPath?: string): string {
  const parts = ["npm run grade --"];
  if (config.targetArg) parts.push(`--target ${config.targetArg}`);
  const deliverable = config.rubric?.deliverables.find((d) => d.checks.some((c) => c.id === checkId));
  const order = config.rubric?.deliverables.map((d) => d.id) ?? [];
  const builtOn = replayPath ? [] : [...(deliverable?.buildsOn ?? [])].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  parts.push(`--only ${[...builtOn, checkId].join(",")}`, `--seed ${config.seed}`);
  if (replayPath) parts.push(`--replay ${replayPath}`);
  return parts.join(" ");
}
