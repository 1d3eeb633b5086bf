// Phase 1: atomic checkpoint.
//
// A checkpoint is a file holding the state of a long task, so that the task can resume after a
// crash. The danger is the crash itself: a process can die at any instant, even halfway through
// writing the file. Your job is to make sure that whatever instant that is, the checkpoint on
// disk is either the complete old state or the complete new one, never a mix or a fragment.

/**
 * Saves `state` (any JSON value) as the checkpoint at `path`, atomically.
 *
 * Think about what a reader would find if the process were killed after each line you write:
 * after the file is created but still empty, after half of the bytes, before and after the step
 * that makes the new data visible under `path`. Only one of those steps is atomic in a POSIX file
 * system; the others are not. Where does the new data live until that step, and what happens to
 * leftovers when a crash lands before it? And when the call returns, is the data really on disk,
 * or still in a cache that a power cut would lose?
 */
export function atomicCheckpoint(path: string, state: unknown): void {
  // TODO: write `state` so that a crash at any point leaves the old or the new checkpoint intact.
  throw new Error("not implemented yet: atomicCheckpoint (starter/checkpoint.ts)");
}

/**
 * Returns the state last saved at `path`, or `null` when there is no checkpoint there.
 *
 * This runs at the start of every process, including the one right after a crash. What files
 * might a crash have left beside the checkpoint, and which of them can be trusted?
 */
export function loadCheckpoint<T = unknown>(path: string): T | null {
  // TODO: read the checkpoint back; a missing checkpoint is not an error.
  throw new Error("not implemented yet: loadCheckpoint (starter/checkpoint.ts)");
}
