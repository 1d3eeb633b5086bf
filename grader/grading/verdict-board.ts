// Where a grade's checks leave their verdicts for the checks of other deliverables that build on
// them. Each deliverable runs in a worker of its own, so the board is a folder in the grade's
// scratch space: a check whose requirement in another deliverable did not pass is not run at all
// (it would score nothing), which spares a broken submission the cost of every check built on it.
import fs from "node:fs";
import path from "node:path";
import { isSelected, type GradeConfig } from "./config.js";
import { writeWhole } from "../write-whole.js";
import type { CheckStatus } from "../contract/verdict.js";
import { steadyNow } from "../steady-clock.js";

/** How often a waiting check looks at the board. */
const POLL_MS = 50;

function boardFile(config: GradeConfig, checkId: string): string {
  return path.join(config.work, "verdicts", checkId);
}

/** Puts a check's own verdict (before any requirement of its own is applied) on the board. */
export function postVerdict(config: GradeConfig, checkId: string, status: CheckStatus): void {
  const file = boardFile(config, checkId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeWhole(file, status);
}

/**
 * The first requirement of `checkId` in another deliverable that did not pass (waiting for its
 * verdict as long as a check may take), or null when all of them passed or one is not known in
 * time (the check then runs, and the report applies its requirements as usual).
 */
export async function unmetElsewhere(config: GradeConfig, deliverable: string, checkId: string): Promise<string | null> {
  const check = config.rubric.deliverables.flatMap((d) => d.checks).find((c) => c.id === checkId);
  const elsewhere = (check?.requires ?? []).filter((r) => !r.startsWith(`${deliverable}.`));
  for (const required of elsewhere) {
    const owner = config.rubric.deliverables.find((d) => d.checks.some((c) => c.id === required));
    // A requirement that is not graded here never passes: the report blocks the check anyway.
    if (!owner?.enabled || !isSelected(config, required)) return required;
    const status = await awaitVerdict(config, required, config.rubric.limits.checkMs);
    if (status !== undefined && status !== "passed") return required;
  }
  return null;
}

/**
 * Whether deliverable `id` showed a bug in this grade: one of its checks did not pass (waiting for
 * their verdicts). A check of a later deliverable is tried with the grader's stand-in for its file
 * only then: a file that passed every check of its own deliverable has no bug to charge once, and
 * a stand-in would only change what the later file sees (a session that reads the runner's own
 * checkpoint format, say). A verdict not known in time counts as a bug shown. Where the
 * deliverable is not graded in full here (--only), it is "not graded": the grade cannot tell, and
 * says so rather than give a verdict the whole grade would not.
 */
export async function showedABug(config: GradeConfig, id: string): Promise<boolean | "not graded"> {
  const deliverable = config.rubric.deliverables.find((d) => d.id === id);
  if (!deliverable?.enabled) return true;
  if (!deliverable.checks.every((c) => isSelected(config, c.id))) return "not graded";
  for (const c of deliverable.checks) {
    const status = await awaitVerdict(config, c.id, config.rubric.limits.checkMs);
    if (status !== "passed") return true;
  }
  return false;
}

async function awaitVerdict(config: GradeConfig, checkId: string, timeoutMs: number): Promise<string | undefined> {
  const file = boardFile(config, checkId);
  for (const end = steadyNow() + timeoutMs; steadyNow() < end; await new Promise((r) => setTimeout(r, POLL_MS))) {
    try {
      return fs.readFileSync(file, "utf8");
    } catch {
      // Not decided yet.
    }
  }
  return undefined;
}
