// The time limit of each call into the target, held inside the child and counted in processor
// time: a call may use `ms` of this process's processor time (and of the programs it ran and
// waited for), however long the machine makes it wait for a processor. The same loop is stopped
// after the same work on a quiet machine and on a busy one; a call that sleeps uses none, and is
// left to the grader's watchdog, which reads that it is blocked (supervisor/watchdog.ts).
//
// How: a watchdog thread reads the process's processor time while a call runs, and once the call
// has used its limit it sends this process SIGINT, which V8 turns into the end of the call (a
// script run with `breakOnSigint`), even inside `while (true) {}`.
// The call and the watchdog agree through one shared word, (call number << 2) | phase, changed
// only by compare-and-swap: the watchdog claims a running call before it signals, and a call ends
// only by claiming itself first, or else waits inside the script for the signal that is on its
// way. So a signal never reaches a call other than the one it was sent for, nor a moment with no
// call to stop.
import vm from "node:vm";
import { Worker } from "node:worker_threads";
import { formatSeconds } from "../../messages/limits.js";
import { MS_PER_TICK, statLineFields } from "../../messages/proc-stat.js";

/** Thrown by `withTimeLimit` when the call used its processor time without returning. */
export class CallTimedOut extends Error {
  constructor(readonly ms: number) {
    super(`did not return within ${formatSeconds(ms)}`);
  }
}

const IDLE = 0;
const RUNNING = 1;
const STOPPING = 2;

/**
 * [0]: the word (call number << 2 | phase); [1]: the running call's limit in milliseconds; [2]: 1
 * while the watchdog sleeps until the next call; bytes 16-23: the process's processor time when the
 * running call began.
 */
// Taken at load: the process closes process.binding before the target runs (closed-doors.ts).
const contextify = (() => {
  try {
    return (process as unknown as { binding(name: string): { startSigintWatchdog?: () => boolean } }).binding("contextify");
  } catch {
    return null; // not offered by this Node
  }
})();

const memory = new SharedArrayBuffer(24);
const shared = new Int32Array(memory, 0, 3);
const startedCpu = new Float64Array(memory, 16, 1);
let calls = 0;
let watching: Worker | null = null;
/** Depth of `withCallLimits` regions: inside one, each call's script is cheap (the signal watch is already armed). */
let regions = 0;
let inCall = false;
/** The call `withTimeLimit` is making, for the trampoline. */
let call: { fn: () => unknown; ms: number } | null = null;

/**
 * The watchdog thread. The process's processor time is read as the call reads it when it begins
 * (all threads); what its programs used counts once they end and are waited for, from /proc. It
 * looks every 20 ms; once a call has run that long, again when the call could have used what is
 * left of its limit with every processor (at least 5 ms later): a few looks for a long call. After
 * five looks with no call running it sleeps until the next call begins, which wakes it.
 */
const WATCHDOG = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const os = require("node:os");
const shared = new Int32Array(workerData, 0, 3);
const startedCpu = new Float64Array(workerData, 16, 1);
const CORES = os.availableParallelism();
const ownMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
let stat = null;
try { stat = fs.openSync("/proc/self/stat", "r"); } catch {}
const buffer = Buffer.alloc(4096);
const statLineFields = ${statLineFields.toString()};
const programsMs = () => {
  if (stat === null) return 0;
  const t = statLineFields(buffer.toString("latin1", 0, fs.readSync(stat, buffer, 0, buffer.length, 0)));
  return (Number(t[13]) + Number(t[14])) * ${MS_PER_TICK};
};
let seen = -1;
let programsSince = 0;
let idle = 0;
for (;;) {
  const word = Atomics.load(shared, 0);
  if ((word & 3) !== ${RUNNING}) {
    seen = -1;
    if (++idle < 5) {
      Atomics.wait(shared, 0, word, 20);
      continue;
    }
    Atomics.store(shared, 2, 1);
    Atomics.wait(shared, 0, word);
    Atomics.store(shared, 2, 0);
    idle = 0;
    continue;
  }
  idle = 0;
  if (word !== seen) {
    seen = word;
    programsSince = programsMs();
    Atomics.wait(shared, 0, word, 20);
    continue;
  }
  const left = Atomics.load(shared, 1) - (ownMs() - startedCpu[0] + programsMs() - programsSince);
  if (left <= 0) {
    if (Atomics.compareExchange(shared, 0, word, (word & ~3) | ${STOPPING}) === word) process.kill(process.pid, "SIGINT");
    Atomics.wait(shared, 0, word, 5);
    continue;
  }
  // The process cannot use more than every processor's time meanwhile: no need to look before that.
  Atomics.wait(shared, 0, word, Math.max(5, left / CORES));
}
`;

// The script each call runs in: it claims its call number first and releases it last, whether the
// call returned or threw; a call the watchdog claimed meanwhile waits here for the signal (a few
// microseconds away). A stopped script runs no finally block: V8 ends it outright.
const trampoline = new vm.Script(
  `(() => { const t = globalThis.__gradeLimit; const word = t.begin(); try { return t.run(); } finally { if (!t.release(word)) for (;;); } })()`,
  { filename: "grader-call-limit" },
);
const region = new vm.Script(`globalThis.__gradeRegion()`, { filename: "grader-call-limits" });

/**
 * Runs `fn` and stops it once it has used `ms` milliseconds of processor time, even inside an
 * endless loop (V8 ends the script; the target cannot catch that). A call blocked in a system call
 * is not stopped here: the grader's watchdog reads that it is blocked and kills the process.
 */
export function withTimeLimit<T>(fn: () => T, ms: number): T {
  // A call made from inside a call is covered by the outer one's limit.
  if (inCall) return fn();
  startWatching();
  call = { fn, ms };
  inCall = true;
  try {
    return trampoline.runInThisContext({ breakOnSigint: true }) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code !== "ERR_SCRIPT_EXECUTION_INTERRUPTED") throw error;
    const stopped = (Atomics.load(shared, 0) & 3) === STOPPING;
    // Someone else's SIGINT (a Ctrl-C in the terminal reaches the whole process group): end as it would have.
    if (!stopped) process.exit(130);
    throw new CallTimedOut(ms);
  } finally {
    Atomics.store(shared, 0, IDLE);
    inCall = false;
    call = null;
  }
}

/**
 * Runs `fn`, which makes many calls under `withTimeLimit`, with the signal watch armed once for
 * all of them: a call's own script then costs microseconds instead of a fifth of a millisecond.
 */
export function withCallLimits<T>(fn: () => T): T {
  if (regions > 0) return fn();
  startWatching();
  const g = globalThis as { __gradeRegion?: () => T };
  g.__gradeRegion = fn;
  regions++;
  try {
    return region.runInThisContext({ breakOnSigint: true }) as T;
  } catch (error) {
    // Only someone else's SIGINT reaches the region itself: each call's own script takes the watchdog's.
    if ((error as NodeJS.ErrnoException)?.code === "ERR_SCRIPT_EXECUTION_INTERRUPTED") process.exit(130);
    throw error;
  } finally {
    regions--;
    delete g.__gradeRegion;
  }
}

/** Claims a new call number for the call being made, with its limit and the processor time it starts from. */
function begin(): number {
  const word = (++calls << 2) | RUNNING;
  const cpu = process.cpuUsage();
  startedCpu[0] = (cpu.user + cpu.system) / 1000;
  Atomics.store(shared, 1, call!.ms);
  Atomics.store(shared, 0, word);
  // The watchdog sleeps after a while with no call: this one wakes it (it looks at the word after saying it sleeps).
  if (Atomics.load(shared, 2) === 1) Atomics.notify(shared, 0);
  return word;
}

/** Ends call `word` unless the watchdog claimed it first. */
function release(word: number): boolean {
  return Atomics.compareExchange(shared, 0, word, word & ~3) === word;
}

/**
 * Starts the watchdog thread once per process; it never keeps the process alive. No SIGINT listener
 * is added (none is ever the watchdog's, see above): each run with `breakOnSigint` would remove and
 * add it again, at a cost per call. Outside a call, a SIGINT is held (keepSigintWatchRunning).
 */
function startWatching(): void {
  if (watching) return;
  // What the trampoline calls, set once: a call allocates nothing of its own here.
  (globalThis as { __gradeLimit?: unknown }).__gradeLimit = { begin, run: () => call!.fn(), release };
  // A small code range: Node 22 and 24 reserve 128 MiB for a new thread's code by default, which
  // the data limit on the sandbox (ulimit -d) refuses, and V8 then ends the whole process.
  watching = new Worker(WATCHDOG, { eval: true, workerData: memory, resourceLimits: { maxOldGenerationSizeMb: 16, codeRangeSizeMb: 8 } });
  watching.unref();
  keepSigintWatchRunning();
}

/**
 * Keeps Node's SIGINT watch (what a script run with `breakOnSigint` arms) running from now on.
 * Otherwise each region's script starts a thread for it and ends it when it returns: 55 µs, and
 * a new thread id at every scenario, which would make the end of each scenario look through
 * /proc for processes the target left behind (identity/processes.ts asks the kernel whether any
 * process or thread was made since it last looked). Outside a script a SIGINT is then held, not
 * fatal: a host is ended by its grade, never by a Ctrl-C of its own. Where Node does not offer it,
 * each script arms the watch as before.
 */
function keepSigintWatchRunning(): void {
  contextify?.startSigintWatchdog?.();
}
