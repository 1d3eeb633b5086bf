// The limits every run of a target's code is held to, and the two ways they are enforced: inside
// the process (a time limit on each call), and by the operating system on the whole process
// (memory and file size), so a Buffer bomb or a file written without end stops where it started.
import fs from "node:fs";
import os from "node:os";
import vm from "node:vm";

export interface Limits {
  /** One call into the target (or its module's top level) in a sandbox. */
  callMs: number;
  /** One real process of the target (a Phase 3 session, a process killed for real). */
  processMs: number;
  /** One check, with every variant of its files: the bound that holds whatever the target does. */
  checkMs: number;
  /** Memory of one process that runs the target's code (heap and buffers together). */
  memoryMiB: number;
  /** The largest file the target may write. */
  fileMiB: number;
  /** How much of a process's output is kept for messages (its end). */
  outputKiB: number;
}

/** Generous on purpose: a correct submission never meets them, even on a loaded 2-core machine. */
export const DEFAULT_LIMITS: Limits = {
  callMs: 5_000,
  processMs: 20_000,
  checkMs: 120_000,
  memoryMiB: 512,
  fileMiB: 64,
  outputKiB: 64,
};

/**
 * The most a whole grade takes, whatever the target does: each deliverable's checks run side by
 * side, at most five at a time (so a deliverable's seven checks take two turns of `checkMs`),
 * plus a minute for compiling and starting.
 */
export function gradeBoundMs(limits: Limits): number {
  return 2 * limits.checkMs + 60_000;
}

/** How long a sandbox may stay silent (no call started, no reply) before it is killed: a blocking system call. */
export function silenceMs(limits: Limits): number {
  return 2 * limits.callMs + 5_000;
}

/** The V8 heap limit: most of the memory limit, so a heap bomb ends in V8's own out-of-memory error. */
export function heapMiB(limits: Limits): number {
  return Math.floor(limits.memoryMiB * 0.75);
}

const SHELL = "/bin/sh";

/**
 * The command that starts `file args` under the memory and file-size limits: through the shell's
 * `ulimit` where there is one (Linux and macOS), as it is elsewhere. A process that dies of a
 * signal then shows as the shell's exit code 128 + the signal's number (see `exitSignal`).
 */
export function limitedCommand(limits: Limits, file: string, args: string[], opts: { replaceShell?: boolean } = {}): { file: string; args: string[] } {
  if (!belowShell()) return { file, args };
  const dataKiB = limits.memoryMiB * 1024 + 256 * 1024; // the limit counts the runtime's own memory too
  const fileBlocks = limits.fileMiB * 2048; // ulimit -f counts 512-byte blocks
  // No `exec`: the shell stays as the runtime's parent, so a target that kills its parent process
  // kills this shell, never the grader. The grader kills the runtime by the id it reports.
  // The shell's own PWD is not passed on: the environment stays the one the grader gave. With
  // `replaceShell` (a process of a user of its own, which cannot signal the grader) the runtime
  // takes the shell's place, so its user has no other process the runtime must spare.
  const script = `ulimit -d ${dataKiB} 2>/dev/null; ulimit -f ${fileBlocks} 2>/dev/null; unset PWD OLDPWD; ${opts.replaceShell ? "exec " : ""}"$0" "$@"`;
  return { file: SHELL, args: ["-c", script, file, ...args] };
}

/** Whether `limitedCommand` starts processes below a shell (the shell is then their parent, not the grader). */
export function belowShell(): boolean {
  return process.platform !== "win32" && fs.existsSync(SHELL);
}

/** Thrown by `withTimeLimit` when the call did not return in time. */
export class CallTimedOut extends Error {
  constructor(
    readonly ms: number,
    /** The process had less than half the time on a CPU: the machine was busy, not the call. */
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
  try {
    return trampoline.runInThisContext({ timeout: ms }) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      const used = process.cpuUsage(cpu);
      throw new CallTimedOut(ms, (used.user + used.system) / 1000 < ms / 2);
    }
    throw error;
  } finally {
    g.__gradeCall = outer;
  }
}

/** "5 s", "0.5 s". */
export function formatSeconds(ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`;
}

/** Why a process that ran the target's code died, when a limit or a crash explains it; null for a plain exit. */
export function deathCause(signal: NodeJS.Signals | null, output: string, limits: Limits): string | null {
  if (/heap out of memory|allocation failed|Cannot allocate memory/i.test(output)) {
    return `ran out of memory: it used more than the ${limits.memoryMiB} MiB a process may use`;
  }
  if (signal === "SIGXFSZ") return `was stopped for writing a file larger than ${limits.fileMiB} MiB`;
  if (signal === "SIGKILL") return "was killed by SIGKILL";
  if (signal) return `crashed: the runtime was killed by ${signal}`;
  return null;
}

/** The signal that ended a process started by `limitedCommand`: its own, or the one its shell reports (exit code 128 + n). */
export function exitSignal(code: number | null | undefined, signal: string | null | undefined): NodeJS.Signals | undefined {
  if (signal) return signal as NodeJS.Signals;
  if (code === null || code === undefined || code <= 128 || code > 128 + 64) return undefined;
  return (Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0] as NodeJS.Signals | undefined) ?? undefined;
}
