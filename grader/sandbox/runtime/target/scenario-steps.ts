// Runs a scenario's steps in order, the same way in a serving host and in a real process:
// fresh instances, marks, the grader's own files, and calls into the target, each under a time limit.
import type realFs from "node:fs";
import path from "node:path";
import { resolveArgs, runCall } from "./call.js";
import { DiskFaults } from "../../interposition/disk-faults.js";
import { takeStepMs } from "./lab-module.js";
import { withTimeLimit } from "./time-limit.js";
import type { CallResult, ScenarioStep } from "../../messages/scenario.js";
import type { Recorder } from "../../interposition/recorder.js";

export interface ScenarioStepsEnv {
  /** A fresh module instance; throws what the target's import threw. */
  instantiate(): Record<string, unknown>;
  /** The `fs` the grader's own files go through (recorded, so crash states keep them). */
  fs: typeof realFs;
  recorder: Recorder;
  /** The processor time one call, and one module's top level, may use. */
  limitMs: number;
  /** Told before each call into the target, so the grader's watchdog knows the host is making progress, and in which call. */
  progress?: (call: string) => void;
  /** The student's own stack frames of an error. */
  frames?: (error: unknown) => string[];
  /** How many asynchronous file-system calls the target started are still to run (recording-fs-async.ts' PendingOps). */
  pending?: () => number;
}

/** Runs `steps` over the scenario folder `root`; returns what each call did. After a call times out, the rest are skipped. */
export function runScenarioSteps(steps: ScenarioStep[], root: string, env: ScenarioStepsEnv): CallResult[] {
  const results: CallResult[] = [];
  let exports: Record<string, unknown> | Error | null = null;
  let stopped: string | null = null;
  for (const step of steps) {
    if (stopped) {
      if ("call" in step) results.push({ status: "timed-out", detail: `was never called`, skippedAfter: stopped });
    } else if ("fresh" in step) exports = null;
    else if ("mark" in step) env.recorder.mark(step.mark);
    else if ("faults" in step) {
      if (step.faults === "off") env.recorder.faults && (env.recorder.faults.armed = false);
      else env.recorder.faults = new DiskFaults(step.faults.inject);
    }
    else if ("mkdir" in step) env.fs.mkdirSync(path.join(root, step.mkdir), { recursive: true });
    else if ("put" in step) {
      const file = path.join(root, step.put);
      env.fs.mkdirSync(path.dirname(file), { recursive: true });
      env.fs.writeFileSync(file, step.content);
    } else {
      env.progress?.(step.call);
      exports ??= importOrError(() => withTimeLimit(env.instantiate, env.limitMs));
      env.recorder.mark(`call:${step.call}`);
      const args = resolveArgs(step.args, root);
      takeStepMs();
      const started = performance.now();
      const pendingBefore = env.pending?.() ?? 0;
      const result = runCall(exports, step.call, args, { root, limitMs: env.limitMs, frames: env.frames, wantValue: step.want === "value" });
      if (result.status === "returned") {
        result.ms = performance.now() - started - takeStepMs();
        // Calls it started and did not wait for: they run on a later turn of the event loop, after it returned.
        const unfinished = (env.pending?.() ?? 0) - pendingBefore;
        if (unfinished > 0) result.unfinished = unfinished;
      }
      results.push(result);
      if (result.status === "timed-out") stopped = `${step.call} ${result.detail}`;
      else env.recorder.mark(`return:${step.call}`);
    }
  }
  return results;
}

/** The module's exports, or the error its import threw (every call then reports it). */
function importOrError(instantiate: () => Record<string, unknown>): Record<string, unknown> | Error {
  try {
    return instantiate();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
