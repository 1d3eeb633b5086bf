// Runs one `npm run grade` of a batch as a process of its own, with this repository's grader,
// and stops it (every process below it) when it outlives the wall-clock limit.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../paths.js";
import type { Report } from "../../report/report.js";
import { formatSeconds } from "../../sandbox/limits.js";

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

/** Process groups of the grades still running, so an interrupted batch leaves none behind. */
const running = new Set<number>();

/** Grades one target; never throws for what the target does. */
export async function runGrade(req: GradeRequest): Promise<GradeOutcome> {
  fs.rmSync(req.json, { force: true }); // a report from an earlier batch must not pass for this one
  let stopped = false;
  // A group of its own: the grade's sandboxes and sessions are killed with it.
  const child = execa(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", req.target, "--json", req.json, ...req.args], {
    cwd: req.cwd,
    detached: true,
    reject: false,
    stdin: "ignore",
    stdout: "ignore",
    env: { NO_COLOR: "1" },
  });
  const pid = child.pid;
  if (pid !== undefined) running.add(pid);
  const timer = setTimeout(() => {
    stopped = true;
    killGroup(pid);
  }, req.wallMs);
  const result = await child;
  clearTimeout(timer);
  killGroup(pid); // whatever the target left running outlives the grade no longer
  if (pid !== undefined) running.delete(pid);
  const report = readReport(req.json);
  if (stopped) return { report: null, error: `the grade did not finish within ${formatSeconds(req.wallMs)} and was stopped` };
  if (result.exitCode === 0 || result.exitCode === 1) return report ? { report } : { report, error: `the grade wrote no report (exit code ${result.exitCode})` };
  if (result.exitCode === 2) return { report, error: report ? errorChecks(report) : firstLines(String(result.stderr), req) };
  return { report, error: `the grade ended with ${result.signal ?? `exit code ${result.exitCode}`}` };
}

/** Stops every grade still running (the batch was interrupted). */
export function stopAllGrades(): void {
  for (const pid of running) killGroup(pid);
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {} // the group has ended
}

function readReport(file: string): Report | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Report;
  } catch {
    return null;
  }
}

/** "the grader could not run phase1.round-trip: <the first line of its message>". */
function errorChecks(report: Report): string {
  const checks = report.deliverables.flatMap((d) => d.checks).filter((c) => c.status === "error");
  const first = (checks[0]?.message ?? "").split("\n")[0]!.replace(/^the grader could not run this check: /, "");
  return `the grader could not run ${checks.map((c) => c.id).join(", ") || "every check"}${first ? `: ${first}` : ""}`;
}

/** What the grade said on stderr, without stack lines or the machine's paths. */
function firstLines(stderr: string, req: GradeRequest): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("at ") && !l.startsWith("Usage:"));
  const text = lines.slice(0, 2).join(" ").replace(/^grade: /, "");
  const plain = [REPO_ROOT, req.cwd].reduce((t, p) => t.split(p + path.sep).join(""), text);
  return plain.length > 300 ? `${plain.slice(0, 297)}...` : plain || "the grade could not run";
}
