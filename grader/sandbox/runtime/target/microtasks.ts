// Whether the target's code queued work for the microtask queue. A scenario run alone gives that
// work its turn as soon as its calls return; scenarios run back to back must not run the next one
// before it, so a batch stops at the first scenario that made a promise or queued a microtask.
import v8 from "node:v8";

let queued = false;
let wrapped = false;

/** Starts watching for promises made and microtasks queued; returns a function that stops watching. */
export function watchMicrotasks(): () => void {
  if (!wrapped) {
    // queueMicrotask makes no promise: the global one the target sees tells us itself.
    const original = globalThis.queueMicrotask;
    globalThis.queueMicrotask = function queueMicrotask(callback: () => void) {
      queued = true;
      return original(callback);
    };
    wrapped = true;
  }
  queued = false;
  const stop = v8.promiseHooks.onInit(() => {
    queued = true;
  });
  return () => stop();
}

/** True when a promise was made or a microtask queued since watching started or since the last call. */
export function microtasksQueued(): boolean {
  const was = queued;
  queued = false;
  return was;
}
