// The time limit of each call into the target, held inside the child: V8 stops a call that runs
// too long, even inside an endless loop. (The supervisor holds the whole process to its limits.)
import vm from "node:vm";
import { cpuTimes, saturatedSince } from "../../busy-machine.js";
import { formatSeconds } from "../../messages/limits.js";

/** Thrown by `withTimeLimit` when the call did not return in time. */
export class CallTimedOut extends Error {
  constructor(
    readonly ms: number,
    /** The process had less than half the time on a CPU, or every processor was busy all along: the machine was slow, not the call. */
    readonly starved: boolean,
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
  const machine = cpuTimes();
  try {
    return trampoline.runInThisContext({ timeout: ms }) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      const used = process.cpuUsage(cpu);
      // A call that waited (for programs it runs, for a busy machine) or that shared a saturated
      // machine with others got less than its time: it is run again with more (see host.ts).
      throw new CallTimedOut(ms, (used.user + used.system) / 1000 < ms / 2 || saturatedSince(machine));
    }
    throw error;
  } finally {
    g.__gradeCall = outer;
  }
}
