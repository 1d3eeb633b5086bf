// Serve mode: a host answers the grader's requests, one reply each, through Node's IPC (see
// messages/host.ts), and tells the grader, while a request runs, which call it is in.
import type { Reply, Request } from "../messages/host.js";
import { NeedTrace, type Host } from "./host.js";
import { silenceTarget } from "./silence.js";

/** How often a call may tell the grader again that it started, when it is the same call as last time. */
const PROGRESS_EVERY_MS = 250;

/**
 * Sends a call's name and time limit when either differs from the last ones sent, or when the
 * last were sent a while ago: the grader's watchdog still hears from a host that makes progress,
 * and still knows which call it was in and how long that call may run, without one message per
 * crash state.
 */
function throttledProgress(send: (call: string, limitMs: number) => void): (call: string, limitMs: number) => void {
  let last = "";
  let lastLimitMs = 0;
  let at = -Infinity;
  return (call, limitMs) => {
    const now = performance.now();
    if (call === last && limitMs === lastLimitMs && now - at < PROGRESS_EVERY_MS) return;
    last = call;
    lastLimitMs = limitMs;
    at = now;
    send(call, limitMs);
  };
}

export function serve(host: Host, guard: () => void): void {
  guard();
  process.on("message", async (msg: { id: number; req: Request }) => {
    host.progress = throttledProgress((call, limitMs) => process.send!({ id: msg.id, progress: call, limitMs }));
    let reply: Reply;
    try {
      reply = { ok: true, value: await host.handle(msg.req) };
    } catch (error) {
      reply = error instanceof NeedTrace
        ? { ok: false, needTrace: error.traceId, error: error.message }
        : { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    process.send!({ id: msg.id, reply });
  });
  silenceTarget();
  // The grader went away: nothing is left to answer.
  process.on("disconnect", () => process.exit(0));
  process.send!({ ready: true, pid: process.pid });
}
