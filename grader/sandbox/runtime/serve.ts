// Serve mode: a host answers the grader's requests, one reply each, through Node's IPC (see
// messages/host.ts), and tells the grader, while a request runs, which call it is in.
import type { Reply, Request } from "../messages/host.js";
import { cpuLedger } from "../messages/cpu-causes.js";
import { NeedTrace, type Host } from "./host.js";
import { silenceTarget } from "./silence.js";

/** How often a call may tell the grader again that it started, when it is the same call as last time. */
const PROGRESS_EVERY_MS = 250;

/**
 * Sends a call's name when it differs from the last one sent, or when the last was sent a while
 * ago: the grader's watchdog still hears from a host that makes progress, and still knows which
 * call it was in, without one message per crash state.
 */
function throttledProgress(send: (call: string) => void): (call: string) => void {
  let last = "";
  let at = -Infinity;
  return (call) => {
    const now = performance.now();
    if (call === last && now - at < PROGRESS_EVERY_MS) return;
    last = call;
    at = now;
    send(call);
  };
}

export function serve(host: Host, guard: () => void): void {
  guard();
  process.on("message", async (msg: { id: number; req: Request }) => {
    host.progress = throttledProgress((call) => process.send!({ id: msg.id, progress: call }));
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
  cpuLedger()?.charge("start");
  process.send!({ ready: true, pid: process.pid });
}
