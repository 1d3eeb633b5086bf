// How the grader's process holds a child to the limits (messages/limits.ts): by the operating
// system on the whole process (memory and file size), so a Buffer bomb or a file written without
// end stops where it started; by the V8 heap limit; and by how long it may stay silent. And how a
// child's death is told in the student's terms.
import os from "node:os";
import { SHELL, belowShell } from "../messages/launch.js";
import type { Limits } from "../messages/limits.js";

/**
 * The most a whole grade takes, whatever the target does, on a machine that gives it its time:
 * each deliverable's checks run side by side, at most five at a time (so a deliverable's seven
 * checks take two turns of `checkMs`), with room for twice that, plus a minute for compiling and
 * starting. A machine kept busy by other work can stretch a check past it (see `checkWallCapMs`).
 */
export function gradeBoundMs(limits: Limits): number {
  return 4 * limits.checkMs + 60_000;
}

/**
 * The wall time after which a check is abandoned whatever its clock says: `checkMs` counts only
 * the time the machine could give the check, and a machine this busy for this long has not given
 * it enough to judge the target. The check is then the grader's error, never the target's failure.
 */
export function checkWallCapMs(limits: Limits): number {
  return 10 * limits.checkMs;
}

/** How long a sandbox may stay silent (no call started, no reply) before it is killed: a blocking system call. */
export function silenceMs(limits: Limits): number {
  return 2 * limits.callMs + 5_000;
}

/** The V8 heap limit: most of the memory limit, so a heap bomb ends in V8's own out-of-memory error. */
export function heapMiB(limits: Limits): number {
  return Math.floor(limits.memoryMiB * 0.75);
}

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
