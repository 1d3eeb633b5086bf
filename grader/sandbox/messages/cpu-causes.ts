// Where a grade's processor time goes, by cause: a developer's measure, on when GRADE_CPU_CAUSES
// names a folder (Linux only: the programs' time is read from /proc). Each process of the grade
// charges its processor time to causes as it goes (`charge`: the time since its last charge goes
// to the cause it names) and, when it exits, writes one JSON file into the folder: its role, its
// milliseconds by cause, and the processor time of the processes it started and waited for.
// `npm run profile-causes -- <folder>` adds them up (grader/tools/profile-causes.ts). A process
// killed outright writes nothing: the total the grade process counts of its descendants shows how
// much that left out.
import fs from "node:fs";
import path from "node:path";
import { processStat } from "./proc-stat.js";

export const CPU_CAUSES_ENV = "GRADE_CPU_CAUSES";

/** Which process of the grade a record is from. */
export type ProcessRole = "grade" | "worker" | "host" | "process" | "actor";

/** The causes a process charges its time to. */
export type Cause = "start" | "compile" | "rebuild" | "target" | "spawn" | "report" | "close" | "own";

/** What one process of the grade wrote when it exited. */
export interface CpuRecord {
  role: ProcessRole;
  /** Its own processor time (user and system), in milliseconds, by cause. */
  causesMs: Partial<Record<Cause, number>>;
  /** The processor time of the processes it started that ended and were waited for (for a host: the programs its target ran), null where not read. */
  endedChildrenMs: number | null;
}

/** One process's running account. */
export class CpuLedger {
  // From the process's start: what comes before the first charge is the process's start-up.
  private last = { user: 0, system: 0 };
  private readonly causesMs: Partial<Record<Cause, number>> = {};

  constructor(
    private readonly folder: string,
    private readonly role: ProcessRole,
  ) {
    process.once("exit", () => this.write());
  }

  /** Charges the processor time since the last charge (since the process started, the first time) to `cause`. */
  charge(cause: Cause): void {
    const now = process.cpuUsage();
    this.causesMs[cause] = (this.causesMs[cause] ?? 0) + (now.user - this.last.user + now.system - this.last.system) / 1000;
    this.last = now;
  }

  /** Writes the record of what this process used so far (again at its exit: a later record replaces an earlier one). */
  write(): void {
    this.charge("own");
    const record: CpuRecord = { role: this.role, causesMs: this.causesMs, endedChildrenMs: processStat("self")?.endedChildrenCpuMs ?? null };
    try {
      fs.writeFileSync(path.join(this.folder, `${this.role}-${process.pid}.json`), JSON.stringify(record) + "\n");
    } catch {} // a folder it may not write to: the record is missing, and the profile says how much
  }
}

// One ledger per process, though each deliverable's compiled checks carry a copy of this module.
const LEDGER = Symbol.for("checkpoint-lab.cpu-ledger");
const holder = globalThis as { [LEDGER]?: CpuLedger };

/** Starts this process's ledger as `role` when GRADE_CPU_CAUSES is set (once: a later call keeps the first role). */
export function startCpuLedger(role: ProcessRole): void {
  const folder = process.env[CPU_CAUSES_ENV];
  if (folder && !holder[LEDGER]) holder[LEDGER] = new CpuLedger(path.resolve(folder), role);
}

/** This process's ledger, or null when none was started (GRADE_CPU_CAUSES is not set). */
export function cpuLedger(): CpuLedger | null {
  return holder[LEDGER] ?? null;
}

/**
 * Runs `work`, the processor time from its start to its end charged to `cause`, and what this
 * process used since its last charge to `before` ("own" unless told: what it was doing meanwhile).
 */
export function charged<T>(cause: Cause, work: () => T, { before = "own" }: { before?: Cause } = {}): T {
  const ledger = cpuLedger();
  if (!ledger) return work();
  ledger.charge(before);
  try {
    return work();
  } finally {
    ledger.charge(cause);
  }
}

/** `charged` for work that is awaited: its time until it settles (and whatever else ran meanwhile). */
export async function chargedUntilSettled<T>(cause: Cause, work: () => Promise<T>): Promise<T> {
  const ledger = cpuLedger();
  if (!ledger) return work();
  ledger.charge("own");
  try {
    return await work();
  } finally {
    ledger.charge(cause);
  }
}

/** The variable a child of the grade inherits when causes are counted (its environment is otherwise the grader's own choice). */
export function cpuCausesEnv(): Record<string, string> {
  const folder = process.env[CPU_CAUSES_ENV];
  return folder ? { [CPU_CAUSES_ENV]: path.resolve(folder) } : {};
}
