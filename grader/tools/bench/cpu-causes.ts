// A grade's processor time by cause, added up from the records its processes wrote under
// GRADE_CPU_CAUSES=<folder> (sandbox/messages/cpu-causes.ts): what `npm run profile-causes` prints
// and what the bench keeps of its profiled grade. The grade process's own count of its
// descendants is the total; what no record accounts for (a process killed outright, esbuild's
// service, the shells between the grader and its children) is a line of its own.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../paths.js";
import { CPU_CAUSES_ENV, type Cause, type CpuRecord, type ProcessRole } from "../../sandbox/messages/cpu-causes.js";
import { timedRun } from "./processor-time.js";

/** One line of the profile: a cause, the processes it was counted in, and its processor seconds. */
export interface CauseLine {
  id: string;
  label: string;
  seconds: number;
}

export interface CauseProfile {
  /** Every process of the grade, as the grade process counted them (its own time and its descendants'), or null without its record. */
  totalSeconds: number | null;
  /** How many records there were, by role. */
  processes: Partial<Record<ProcessRole, number>>;
  lines: CauseLine[];
}

/** What each role's causes are called, in the order they are printed. */
const LABELS: { role: ProcessRole; cause: Cause | "programs"; label: string }[] = [
  { role: "grade", cause: "start", label: "the grade process: its start (Node, the command line's code)" },
  { role: "grade", cause: "compile", label: "the grade process: compiling the checks, the host and the probed files" },
  { role: "grade", cause: "own", label: "the grade process: the rest (vitest, the live rows, the report)" },
  { role: "worker", cause: "start", label: "workers: their start (Node, vitest, the checks' code)" },
  { role: "worker", cause: "compile", label: "workers: compiling the target's files" },
  { role: "worker", cause: "own", label: "workers: the checks' own work (crash points, requests, judging)" },
  { role: "host", cause: "start", label: "sandbox hosts: their start (Node, the host's code)" },
  { role: "host", cause: "rebuild", label: "sandbox hosts: rebuilding each crash state's disk" },
  { role: "host", cause: "target", label: "sandbox hosts: the target's code, its calls recorded" },
  { role: "host", cause: "spawn", label: "sandbox hosts: starting the target's programs and waiting for them" },
  { role: "host", cause: "report", label: "sandbox hosts: each scenario's reply (its trace, its effects, git log)" },
  { role: "host", cause: "close", label: "sandbox hosts: each scenario's end (its folder emptied, leftovers ended)" },
  { role: "host", cause: "own", label: "sandbox hosts: the rest (requests, replies sent, the time-limit thread)" },
  { role: "host", cause: "programs", label: "programs the hosts started (the target's, and git log for the grader)" },
  { role: "process", cause: "own", label: "real processes (sessions, killed runs): their own time" },
  { role: "process", cause: "programs", label: "programs the real processes started" },
  { role: "actor", cause: "own", label: "concurrency actors: their own time" },
  { role: "actor", cause: "programs", label: "programs the actors started" },
];

/** The records in `folder` added up by cause; a line with no time is left out. */
export function profileOfFolder(folder: string): CauseProfile {
  const records = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(fs.readFileSync(path.join(folder, f), "utf8")) as CpuRecord);
  return causeProfile(records);
}

/** The records added up by cause (see the top of this file). */
export function causeProfile(records: readonly CpuRecord[]): CauseProfile {
  const processes: Partial<Record<ProcessRole, number>> = {};
  const ms = new Map<string, number>();
  let ownMs = 0;
  for (const r of records) {
    processes[r.role] = (processes[r.role] ?? 0) + 1;
    for (const [cause, used] of Object.entries(r.causesMs)) {
      // A cause a role does not name in LABELS is the role's "own".
      const known = LABELS.some((l) => l.role === r.role && l.cause === cause) ? cause : "own";
      ms.set(`${r.role}.${known}`, (ms.get(`${r.role}.${known}`) ?? 0) + used);
      ownMs += used;
    }
  }
  // Programs are the children the runtimes waited for; a worker's and the grade's children are
  // the grade's own processes, each counted by its record.
  let programsMs = 0;
  for (const r of records) {
    if (r.role === "grade" || r.role === "worker" || r.endedChildrenMs === null) continue;
    ms.set(`${r.role}.programs`, (ms.get(`${r.role}.programs`) ?? 0) + r.endedChildrenMs);
    programsMs += r.endedChildrenMs;
  }
  const grade = records.find((r) => r.role === "grade");
  const gradeOwn = grade ? Object.values(grade.causesMs).reduce((a, b) => a + b, 0) : 0;
  const totalMs = grade && grade.endedChildrenMs !== null ? gradeOwn + grade.endedChildrenMs : null;
  const lines: CauseLine[] = LABELS.map((l) => ({ id: `${l.role}.${l.cause}`, label: l.label, seconds: (ms.get(`${l.role}.${l.cause}`) ?? 0) / 1000 })).filter((l) => l.seconds > 0);
  if (totalMs !== null) lines.push({ id: "unattributed", label: "not in any record (processes killed outright, esbuild's service, shells)", seconds: Math.max(0, totalMs - ownMs - programsMs) / 1000 });
  return { totalSeconds: totalMs === null ? null : totalMs / 1000, processes, lines };
}

/** What a record of each role is from, one and many, in the order they are counted. */
const ROLE_NOUNS: [ProcessRole, string, string][] = [
  ["grade", "grade process", "grade processes"],
  ["worker", "worker", "workers"],
  ["host", "sandbox host", "sandbox hosts"],
  ["process", "real process", "real processes"],
  ["actor", "actor", "actors"],
];

/** The profile as lines of text, each cause with its seconds and its share of the total. */
export function causeProfileLines(profile: CauseProfile): string[] {
  const counted = ROLE_NOUNS.filter(([role]) => profile.processes[role]).map(([role, one, many]) => `${profile.processes[role]} ${profile.processes[role] === 1 ? one : many}`).join(", ");
  const total = profile.totalSeconds ?? profile.lines.reduce((a, l) => a + l.seconds, 0);
  const width = Math.max(...profile.lines.map((l) => l.label.length));
  const out = [`processor time by cause, from the records of ${counted || "no process"}:`];
  for (const l of profile.lines) out.push(`  ${l.label.padEnd(width)} ${l.seconds.toFixed(2).padStart(7)} s ${((l.seconds / total) * 100).toFixed(1).padStart(5)}%`);
  out.push(profile.totalSeconds === null ? "  (no record of the grade process: the total is the records' sum)" : `  ${"every process of the grade".padEnd(width)} ${total.toFixed(2).padStart(7)} s`);
  return out;
}

/**
 * Runs one grade of `launchArgs` with GRADE_CPU_CAUSES set (its records in a folder of their own
 * under `work`, open to the users the submitted code runs as) and returns its processor time by cause.
 */
export async function profiledGrade(work: string, launchArgs: string[], { exitCodes = [0] }: { exitCodes?: number[] } = {}): Promise<CauseProfile & { seconds: number; cpuSeconds: number | null }> {
  const folder = fs.mkdtempSync(path.join(work, "cpu-causes-"));
  // The submitted code's users write their hosts' records here: the folders above must let them in.
  for (let dir = folder; dir !== path.dirname(dir) && dir.startsWith(work); dir = path.dirname(dir)) fs.chmodSync(dir, dir === folder ? 0o1777 : fs.statSync(dir).mode | 0o111);
  const run = await timedRun(process.execPath, [path.join(REPO_ROOT, "grader/cli/launch.mjs"), ...launchArgs], { env: { ...process.env, [CPU_CAUSES_ENV]: folder }, exitCodes });
  return { ...profileOfFolder(folder), ...run };
}
