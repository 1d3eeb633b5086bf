// The time limit of each call into the target, held inside the child: V8 stops a call that runs
// too long, even inside an endless loop. (The supervisor holds the whole process to its limits.)
import os from "node:os";
import vm from "node:vm";
import { readMachine, shareBetween } from "../../busy-machine.js";
import { formatSeconds } from "../../messages/limits.js";

/** Thrown by `withTimeLimit` when the call did not return in time. */
export class CallTimedOut extends Error {
  constructor(
    readonly ms: number,
    /** The share of a processor a runnable thread got meanwhile (1 while one was to spare): the call had about `ms * share` of the machine. */
    readonly share = 1,
    /** The processor time this process used meanwhile (the programs it ran not counted). */
    readonly cpuMs = 0,
  ) {
    super(`did not return within ${formatSeconds(ms)}`);
  }
}

const trampoline = new vm.Script("globalThis.__gradeCall()", { filename: "grader-call-limit" });

/**
 * Runs `fn` and stops it after `ms` milliseconds of synchronous running, even inside an endless
 * loop (V8 terminates the script; the target cannot catch that). A call blocked in a system call
 * is not stopped here: the grader's watchdog kills the whole process.
 */
export function withTimeLimit<T>(fn: () => T, ms: number): T {
  const g = globalThis as { __gradeCall?: () => T };
  const outer = g.__gradeCall;
  g.__gradeCall = fn;
  const cpu = process.cpuUsage();
  const machine = readMachine();
  try {
    return trampoline.runInThisContext({ timeout: ms }) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      const used = process.cpuUsage(cpu);
      // A call that waited (for programs it runs, for a busy machine) got less than its time: it
      // is run again with more (see runsAgain and host.ts).
      const now = readMachine();
      const share = machine && now ? shareBetween(machine, now, os.availableParallelism()) : 1;
      const cpuMs = (used.user + used.system) / 1000;
      throw new CallTimedOut(ms, share, cpuMs);
    }
    throw error;
  } finally {
    g.__gradeCall = outer;
  }
}

/**
 * Whether a call that met its time limit is tried again: while it has used less than half its
 * nominal limit of processor time, the machine (or the programs it waits for), not the call, was
 * slow. One that has used half has had its chance, however busy the machine: an endless loop on a
 * quiet machine uses all of it at its first try.
 */
export function runsAgain(timedOut: { cpuMs?: number }, nominalMs: number): boolean {
  return (timedOut.cpuMs ?? 0) < nominalMs / 2;
}

/** The most wall time one try of a call is given, however little of the machine it gets. */
const MOST_CALL_MS = 600_000;

/**
 * The limit of a call's next try after a try of `ms` timed out starved: at least twice the last,
 * and enough wall time for the machine to give the call `nominalMs` at the share of a processor
 * the last try had (a call that had a tenth of a processor gets ten times its limit), at most ten
 * minutes.
 */
export function nextLimit(ms: number, nominalMs: number, share = 1): number {
  return Math.min(MOST_CALL_MS, Math.max(2 * ms, Math.ceil(nominalMs / Math.max(share, 0.01))));
}
