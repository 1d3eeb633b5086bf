// The limits every run of a target's code is held to, as the rubric sets them. Both sides hold
// the target to them: the supervisor each whole process (memory, file size, silence), the runtime
// each call (its time limit arrives in the configuration of its mode). And how a message states a time.

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

/** "5 s", "0.5 s". */
export function formatSeconds(ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`;
}
