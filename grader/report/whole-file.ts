// A deliverable's file that cannot be graded at all, because it is missing or does not compile:
// every check of the deliverable fails with the same sentence, which names the file as the
// student typed the target ("starter/session.ts does not compile: session.ts:8:40: ...") and, for
// a file missing from the repository's starter/, the command that brings it back. The scoreboard
// and the HTML page then tell it once per deliverable (wholeFileFailure), not once per check.
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import { waitWords, type CheckReport } from "./report.js";

/** What of a grade's configuration names the target: the folder as typed ("" for the default starter/) and where it is. */
export interface TargetNamed {
  targetArg: string;
  targetDir: string;
}

/**
 * The story of `file` (such as "session.ts") that the bundler could not compile: `problem` is its
 * "is missing" or "does not compile: session.ts:8:40: ...". The folder is named as typed, unless
 * that is a machine path in disguise (a target given by an absolute path elsewhere on the
 * machine, "../../tmp/x"): then the file alone, "from the target folder".
 */
export function wholeFileStory(target: TargetNamed, file: string, problem: string): { story: string; restore?: string } {
  const folder = folderWords(target);
  const where = folder === null ? file : `${folder}/${file}`;
  if (problem !== "is missing") return { story: `${where} ${problem}` };
  if (path.resolve(target.targetDir) === path.join(REPO_ROOT, "starter") && folder !== null) {
    const restore = `git checkout -- ${where}`;
    return { story: `${where} is missing${RESTORE}${restore}`, restore };
  }
  return { story: `${file} is missing from ${folder === null ? "the target folder" : `${folder}/`}` };
}

/** The target folder as the student typed it ("starter" for the default), or null when that would name the machine's own folders. */
function folderWords(target: TargetNamed): string | null {
  const typed = target.targetArg.replace(/\/+$/, "") || "starter";
  const climbsToRoot = `/${typed.replace(/^(\.\.\/)+/, "")}` === path.resolve(target.targetDir);
  return path.isAbsolute(typed) || climbsToRoot ? null : typed;
}

/** What comes before the command that restores a missing file, in its story. */
const RESTORE = ": restore it with ";

/**
 * A whole-file story as its words and, for a missing file that git can restore (the cause's
 * `restore`, which the story ends with), the command, for a terminal to keep on a line of its own.
 */
export function restoreCommand(story: string, restore: string | undefined): { said: string; command?: string } {
  const told = `${RESTORE}${restore}`;
  // The words keep "...: restore it with"; the command follows on its own line.
  return restore !== undefined && story.endsWith(told) ? { said: story.slice(0, story.length - restore.length - 1), command: restore } : { said: story };
}

/** What of a deliverable's report the finding reads (report.ts's DeliverableReport has it). */
interface GradedDeliverable {
  checks: Pick<CheckReport, "status" | "message" | "waitsOn" | "alsoFails" | "cause">[];
}

/**
 * The one sentence that tells why none of a deliverable's checks could run, when every check
 * that ran failed because its files could not be compiled, with the same story (and every other
 * waits on one): undefined otherwise.
 */
export function wholeFileFailure(d: GradedDeliverable): string | undefined {
  const failed = d.checks.filter((c) => c.status !== "blocked");
  const story = failed[0]?.message;
  if (!story || !failed[0]!.cause?.wholeFile) return undefined;
  return failed.every((c) => c.status === "failed" && c.cause?.wholeFile && c.message === story) ? story : undefined;
}

/**
 * The one sentence for a deliverable of more than one check whose every check only waits on the
 * same check (a file of an earlier phase that does not compile, say): "Its 3 checks are scored
 * only once phase1.crash-safety passes; fix that first." Undefined when a check has a story of
 * its own or they wait on different checks.
 */
export function sharedWait(d: GradedDeliverable): string | undefined {
  const waitsOn = d.checks[0]?.waitsOn;
  const same = (c: GradedDeliverable["checks"][number]) => c.status === "blocked" && !c.alsoFails && c.waitsOn?.join() === waitsOn?.join();
  if (d.checks.length < 2 || !waitsOn || !d.checks.every(same)) return undefined;
  return `Its ${d.checks.length} checks are scored only once ${waitWords(waitsOn)}`;
}
