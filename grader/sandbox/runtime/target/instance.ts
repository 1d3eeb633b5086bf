// Fresh module instances of a compiled target: the bundle is compiled once, then run with a new
// `module` object each time, so no module-level memory carries over from one instance to the next.
// Each instance also gets its own process id and random stream, as a new process would.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { ASYNC_BODY_HEAD_LINES, ASYNC_BODY_MARKER } from "../../../target/esm-to-function.js";
import { StudentFrames } from "./frames.js";
import { seededMath } from "./random-streams.js";
import { guardedModule } from "./closed-doors.js";

/** Thrown into the target when it calls `process.exit`, so the call ends there. */
export class TargetExit extends Error {
  constructor(readonly code: number | undefined, readonly signal?: string | number) {
    super(signal !== undefined ? `the process sent itself ${signal}` : `process.exit(${code ?? ""}) was called`);
  }
}

export interface InstanceContext {
  /** The `fs` module the target sees. */
  fs: unknown;
  /** The `child_process` module the target sees (Node's own when absent). */
  childProcess?: unknown;
  /** Modules the target imports by name that the grader provides (the lab module). */
  provided: Record<string, unknown>;
  /** The simulated process id of this instance. */
  pid: number;
  /** Other processes that are running alongside this one (for `process.kill(pid, 0)`); every other id is dead. */
  livePids?: number[];
  /** Give the target the real `process` (a real process of its own, running a program). */
  realProcess?: boolean;
  /**
   * The seed of this instance's `Math.random`, a stream of its own (see random-streams.ts); in a
   * real process, "real": the runtime's own.
   */
  random: number | "real";
  /** Told each time the instance draws from its seeded stream. */
  drew?: () => void;
}

const PARAMS = ["exports", "require", "module", "__filename", "__dirname", "process", "Math", "__entryUrl", "__entryFile", "__entryDir"];

/** A target bundle compiled once, ready to be instantiated many times. */
export class CompiledTarget {
  private readonly fn: Function;
  private readonly hostRequire: NodeJS.Require;
  /** The student's own frames of an error thrown by this bundle. */
  readonly frames: StudentFrames;

  /** `entryFile` is the target file the bundle was made from: import.meta and require.main refer to it. */
  constructor(readonly bundleFile: string, readonly targetDir: string, readonly entryFile: string) {
    const code = fs.readFileSync(bundleFile, "utf8");
    // A target with top-level await arrives as the body of an async function (see target/esm-to-function.ts).
    const asyncBody = code.startsWith(ASYNC_BODY_MARKER);
    const body = asyncBody ? `return (async () => {\n${code}\n})();` : code;
    // Its lines as esbuild printed them, which its source map maps: past the wrapper's line and the two esm-to-function.ts puts first.
    this.fn = vm.compileFunction(body, PARAMS, { filename: bundleFile, lineOffset: asyncBody ? -1 - ASYNC_BODY_HEAD_LINES : 0 });
    this.frames = new StudentFrames(bundleFile, code, targetDir);
    this.hostRequire = createRequire(targetDir.endsWith("/") ? targetDir : targetDir + "/");
  }

  /** Runs the bundle's top level in a fresh module object and returns its exports. */
  instantiate(ctx: InstanceContext): Record<string, unknown> {
    return this.evaluate(ctx).exports;
  }

  /** Like `instantiate`, and also the promise of a top level that awaits (settled at once otherwise). */
  start(ctx: InstanceContext): { exports: Record<string, unknown>; done: Promise<unknown> } {
    const { exports, result } = this.evaluate(ctx);
    return { exports, done: Promise.resolve(result) };
  }

  /** Runs the top level; `result` is what the bundle's function returned (a promise when it awaits). Makes no promise of its own. */
  private evaluate(ctx: InstanceContext): { exports: Record<string, unknown>; result: unknown } {
    const module = { exports: {} as Record<string, unknown> };
    const fakeProcess = ctx.realProcess ? process : simulatedProcess(ctx.pid, ctx.livePids ?? []);
    const require = Object.assign((name: string): unknown => {
      if (name === "fs" || name === "node:fs") return ctx.fs;
      if (name === "fs/promises" || name === "node:fs/promises") return (ctx.fs as { promises: unknown }).promises;
      if (name === "process" || name === "node:process") return fakeProcess;
      if (ctx.childProcess && (name === "child_process" || name === "node:child_process")) return ctx.childProcess;
      if (name in ctx.provided) return ctx.provided[name];
      return guardedModule(name, this.hostRequire, require) ?? this.hostRequire(name);
    }, { main: ctx.realProcess ? module : undefined, resolve: this.hostRequire.resolve, cache: {} });
    const { entryFile } = this;
    const result = this.fn.call(module.exports, module.exports, require, module, entryFile, path.dirname(entryFile), fakeProcess,
      ctx.random === "real" ? Math : seededMath(ctx.random, ctx.drew), pathToFileURL(entryFile).href, entryFile, path.dirname(entryFile));
    return { exports: module.exports, result };
  }
}

/** Ways to listen to a process's events: a SIGINT listener is taken and never called. */
const LISTEN = new Set<string | symbol>(["on", "addListener", "once", "prependListener", "prependOnceListener"]);

/**
 * The real `process`, except for its id, `exit`, which ends the current call instead, and SIGINT,
 * which nobody sends a simulated process: the sandbox's own call limit uses it (time-limit.ts),
 * and a listener added in a call would take it from that limit.
 */
function simulatedProcess(pid: number, livePids: number[]): NodeJS.Process {
  const exit = (code?: number) => {
    throw new TargetExit(code);
  };
  const simulated: NodeJS.Process = new Proxy(process, {
    get(target, prop) {
      if (prop === "pid") return pid;
      if (LISTEN.has(prop)) {
        const listen = Reflect.get(target, prop) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => (args[0] === "SIGINT" ? simulated : Reflect.apply(listen, simulated, args));
      }
      if (prop === "exit" || prop === "reallyExit" || prop === "abort") return exit;
      if (prop === "kill") return (target: number, signal?: string | number) => {
        if (target === pid || target === 0) {
          if (signal === 0) return true;
          throw new TargetExit(undefined, signal ?? "SIGTERM");
        }
        if (livePids.includes(target)) {
          if (signal === 0) return true;
          throw Object.assign(new Error(`kill EPERM`), { code: "EPERM", errno: -1, syscall: "kill" });
        }
        // Every other simulated process has ended (a crash ended it): as for a dead process id.
        throw Object.assign(new Error(`kill ESRCH`), { code: "ESRCH", errno: -3, syscall: "kill" });
      };
      return Reflect.get(target, prop);
    },
  });
  return simulated;
}
