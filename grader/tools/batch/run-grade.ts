// Runs one `npm run grade` of a batch as a process of its own, with this repository's grader,
// and stops it (every process below it) when it outlives the wall-clock limit.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../paths.js";
import type { Report } from "../../report/report.js";
import { readReport } from "../../report/read-report.js";
import { formatSeconds } from "../../sandbox/messages/limits.js";
import { releaseIdsOf } from "../../sandbox/identity/ids.js";

export interface GradeRequest {
  cwd: string;
  target: string;
  /** Where the grade writes its JSON report. */
  json: string;
  /** More arguments: --rubric, --seed, --only. */
  args: string[];
  wallMs: number;
}

/** A grade's outcome: its report when it wrote one, and why it is not a grade when it is not. */
export interface GradeOutcome {
  report: Report | null;
  /** Set when the row is an error: the grade could not run, or was stopped. */
  error?: string;
}

/** How long a grade asked to stop may take to remove its scratch folders before it is killed. */
const STOP_GRACE_MS = 2_000;

/** Process groups of the grades still running, so an interrupted batch leaves none behind. */
const running = new Set<number>();
/** Set once the batch is interrupted: no grade starts after that. */
let stopping = false;

/** Grades one target; never throws for what the target does. */
export async function runGrade(req: GradeRequest): Promise<GradeOutcome> {
  fs.rmSync(req.json, { force: true }); // a report from an earlier batch must not pass for this one
  if (stopping) return { report: null, error: "the batch was interrupted" };
  let stopped = false;
  // A group of its own: the grade's sandboxes and sessions are killed with it.
  const child = execa(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", req.target, "--json", req.json, "--no-cache", ...req.args], {
    cwd: req.cwd,
    detached: true,
    reject: false,
    stdin: "ignore",
    stdout: "ignore",
    env: { NO_COLOR: "1" },
  });
  const pid = child.pid;
  if (pid !== undefined) running.add(pid);
  // Asked first (the grade then removes its scratch folders), killed if it has not ended soon after.
  const timer = setTimeout(() => {
    stopped = true;
    signalGroup(pid, "SIGTERM");
    setTimeout(() => signalGroup(pid, "SIGKILL"), STOP_GRACE_MS).unref();
  }, req.wallMs);
  const result = await child;
  clearTimeout(timer);
  if (stopped) await new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS));
  signalGroup(pid, "SIGKILL"); // whatever the target left running outlives the grade no longer
  // A grade killed before its end left its targets' users behind (other sessions, other process groups).
  if (pid !== undefined) releaseIdsOf(pid);
  if (pid !== undefined) running.delete(pid);
  const report = readReportOrNull(req.json);
  if (stopped) return { report: null, error: `the grade did not finish within ${formatSeconds(req.wallMs)} and was stopped` };
  if (result.exitCode === 0 || result.exitCode === 1) return report ? { report } : { report, error: `the grade wrote no report (exit code ${result.exitCode})` };
  if (result.exitCode === 2) return { report, error: report ? errorChecks(report) : firstLines(String(result.stderr), req) };
  return { report, error: `the grade ended with ${result.signal ?? `exit code ${result.exitCode}`}` };
}

/** Stops every grade still running (the batch was interrupted), as the wall-clock limit does. */
export async function stopAllGrades(): Promise<void> {
  stopping = true;
  for (const pid of running) signalGroup(pid, "SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS));
  for (const pid of running) signalGroup(pid, "SIGKILL");
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {} // the group has ended
}

function readReportOrNull(file: string): Report | null {
  try {
    return readReport(file);
  } catch {
    return null;
  }
}

/** "the grader could not run phase1.round-trip: <the first line of its error>". */
function errorChecks(report: Report): string {
  const checks = report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "error");
  const first = checks[0]?.cause?.graderError ?? checks[0]?.cause?.outcome;
  return `the grader could not run ${checks.map((c) => c.id).join(", ") || "every check"}${first ? `: ${first}` : ""}`;
}

/** What the grade said on stderr, without stack lines or the machine's paths. */
function firstLines(stderr: string, req: GradeRequest): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("at ") && !l.startsWith("Usage:"));
  const text = lines.slice(0, 2).join(" ").replace(/^grade: /, "");
  const plain = [REPO_ROOT, req.cwd].reduce((t, p) => t.split(p + path.sep).join(""), text);
  return plain.length > 300 ? `${plain.slice(0, 297)}...` : plain || "the grade could not run";
}
