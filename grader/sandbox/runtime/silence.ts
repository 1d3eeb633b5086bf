// What a target prints in a sandbox host or an actor is dropped, not written: output floods cost
// nothing, and nothing the target prints can reach the grader.

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
