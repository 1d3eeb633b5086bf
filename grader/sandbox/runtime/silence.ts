// What a target prints in a sandbox host or an actor is dropped, not written: output floods cost
// nothing, and nothing the target prints can reach the grader. Nor can a callback it left behind
// end the process.

/** Makes `process.stdout.write` and `process.stderr.write` drop what they are given (and still call back). */
export function discardOutput(): void {
  const discard = (_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") queueMicrotask(() => done());
    return true;
  };
  process.stdout.write = discard as typeof process.stdout.write;
  process.stderr.write = discard as typeof process.stderr.write;
}

/**
 * Drops what the target prints (runtime failures still reach the real stderr), and keeps a
 * callback the target left behind from taking the process down between requests or calls.
 */
export function silenceTarget(): void {
  discardOutput();
  process.on("uncaughtException", () => {});
  process.on("unhandledRejection", () => {});
}
