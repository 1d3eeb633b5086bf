// How the grader starts a child that runs the target's code, as both sides must agree on it: the
// flag that names the child's mode, the pipes it has beyond its standard streams, and whether it
// runs below a shell (which then is its parent, not the grader).
import fs from "node:fs";

/** The command-line flag of each mode: a host serving requests, a real process of the target's, an actor. */
export const MODE_FLAGS = { serve: "--serve", process: "--process", actor: "--actor" } as const;

export type Mode = keyof typeof MODE_FLAGS;

/** The pipe a process or an actor tells the grader on, one JSON line a message. */
export const REPORT_FD = 3;

/** The pipe an actor is told on (its calls, and the grader's go for each operation). */
export const ACTOR_IN_FD = 4;

export const SHELL = "/bin/sh";

/** Whether children start below a shell (see supervisor/limits.ts, limitedCommand): on Linux and macOS. */
export function belowShell(): boolean {
  return process.platform !== "win32" && fs.existsSync(SHELL);
}

/** The signal that asks a profiled child (GRADE_CPU_PROFILE) to exit and write its profile. */
export const PROFILE_EXIT_SIGNAL = "SIGUSR2";
