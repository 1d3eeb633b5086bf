// A deliverable not started yet: every check that ran failed because a function still throws the
// starter's "not implemented yet" error, and every other check waits on such a check. Its row
// then says that in one line, instead of one story per check that all say the same.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import { requirementsByCheck, type Rubric } from "../rubric.js";
import type { Cause } from "../contract/verdict.js";

/** What of a deliverable's report the finding reads (report.ts's DeliverableReport has it). */
interface GradedDeliverable {
  id: string;
  status: string;
  checks: { id: string; status: string; cause?: Cause }[];
}

/** What the starter's error says: "not implemented yet: runTask (starter/runner.ts)". */
const NOT_IMPLEMENTED = /not implemented yet: ([A-Za-z_$][\w$]*) \(([^)\s]+)\)/g;

/** Why a deliverable is not started: the functions that still throw, as "runTask (runner.ts)", and whether they are all its file's. */
export interface NotStarted {
  functions: string[];
  /** Every function the starter leaves to write in the deliverable's own file still throws. */
  all: boolean;
}

/** The functions whose starter error `text` holds (the target's error, or the starter's source), as "name (file.ts)", in order, once each. */
export function notImplementedIn(text: string): string[] {
  return [...new Set([...text.matchAll(NOT_IMPLEMENTED)].map((m) => `${m[1]} (${path.basename(m[2]!)})`))];
}

/** The functions a failure's cause names as still throwing the starter's error: what the target's code threw or printed. */
export function notImplementedBy(cause: Cause | undefined): string[] {
  return notImplementedIn((cause?.errors ?? []).map((e) => e.message).join("\n"));
}

/** The functions the starter's `file` leaves to write ("name (file.ts)"); [] when there is no starter copy of it. */
export function starterFunctions(file: string, starterDir = path.join(REPO_ROOT, "starter")): string[] {
  try {
    return notImplementedIn(fs.readFileSync(path.join(starterDir, file), "utf8"));
  } catch {
    return [];
  }
}

/**
 * The deliverables not started, by id. One is when none of its checks passed, every check that
 * ran failed naming a function that still throws the starter's error (on its own, when blocked),
 * and every check that did not run waits on a check of a deliverable not started.
 */
export function notStartedDeliverables(deliverables: GradedDeliverable[], rubric: Rubric, starterDir?: string, { targetDir }: { targetDir?: string } = {}): Map<string, NotStarted> {
  const requires = requirementsByCheck(rubric);
  const deliverableOf = new Map(deliverables.flatMap((d) => d.checks.map((c) => [c.id, d.id] as const)));
  const found = new Map<string, NotStarted>();
  // Fixed point: a deliverable whose checks all wait on a deliverable found here is found next.
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of deliverables) {
      if (found.has(d.id) || d.status !== "graded" || d.checks.length === 0 || d.checks.some((c) => c.status === "passed" || c.status === "error")) continue;
      const functions = new Set<string>();
      // A check that waits on one failing for the same reason: in a deliverable found already, or of its own that names such a function.
      const check = (id: string) => d.checks.find((c) => c.id === id);
      const named = (id: string) => notImplementedBy(check(id)?.cause).length > 0;
      // A check of its own may itself wait on one that names it (crash-schedules on crash-safety, on round-trip).
      const waitsOnNotStarted = (id: string, seen: Set<string> = new Set([id])): boolean =>
        (requires.get(id) ?? []).some((r) => {
          if (seen.has(r)) return false;
          if (deliverableOf.get(r) !== d.id) return found.has(deliverableOf.get(r) ?? "");
          return named(r) || (check(r)?.status === "blocked" && waitsOnNotStarted(r, seen.add(r)));
        });
      const sameCause = d.checks.every((c) => {
        const named = notImplementedBy(c.cause);
        named.forEach((f) => functions.add(f));
        return named.length > 0 || (c.status === "blocked" && waitsOnNotStarted(c.id));
      });
      if (!sameCause) continue;
      // A deliverable whose checks all wait on another one: the same functions as that one.
      if (functions.size === 0) for (const c of d.checks) for (const r of requires.get(c.id) ?? []) found.get(deliverableOf.get(r) ?? "")?.functions.forEach((f) => functions.add(f));
      const file = rubric.deliverables.find((r) => r.id === d.id)?.file ?? "";
      const own = starterFunctions(file, starterDir);
      // A function no check reached (diff.ts's loadHistory, once recordHistory threw) is not
      // started either when the target's own file still throws the starter's error for it.
      const untouched = targetDir ? starterFunctions(file, targetDir) : [];
      const all = own.length > 0 && own.every((f) => functions.has(f) || untouched.includes(f));
      found.set(d.id, { functions: all ? own : [...functions], all });
      changed = true;
    }
  }
  return found;
}

/** "not started: runTask is not implemented yet", or, when some of its file's functions work, which ones every check needs. */
export function notStartedLine(n: NotStarted): string {
  const names = n.functions.map((f) => f.replace(/ \(.*\)$/, ""));
  const files = [...new Set(n.functions.map((f) => /\((.*)\)$/.exec(f)?.[1] ?? ""))];
  const list = names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  const verb = names.length === 1 ? "is" : "are";
  return n.all ? `not started: ${list} ${verb} not implemented yet (${files.join(", ")})` : `${list} (${files.join(", ")}) ${verb} not implemented yet, and every check here needs ${names.length === 1 ? "it" : "them"}`;
}
