// How a running check tells the grade's live progress line how many crash states it has checked
// so far: a vitest annotation of this type, sent from the worker at most once a second and only
// when the count changed. The count lives in the worker's sandboxes; an annotation is the one
// message vitest 4 carries from a running test to the reporter in the grade's own process.

/** The annotation type whose message is a running check's crash states so far, in decimal. */
export const CRASH_STATES_ANNOTATION = "checkpoint-lab:crash-states";

/** How often a running check looks at its count. */
const EVERY_MS = 1000;

/**
 * Sends `count()` through `annotate` every second it changed, until the returned function is
 * called (which waits for the last one sent). A failed send is not the check's failure.
 */
export function tellCrashStates(count: () => number, annotate: (message: string, type: string) => Promise<unknown>): () => Promise<void> {
  let told = 0;
  let last: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    const n = count();
    if (n === told) return;
    told = n;
    try {
      last = annotate(String(n), CRASH_STATES_ANNOTATION).catch(() => undefined);
    } catch {
      // The test ended between the count and the send: nothing left to tell.
    }
  }, EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await last;
  };
}
