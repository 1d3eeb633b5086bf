// Runs a scenario's steps in order, the same way in a serving host and in a real process:
// fresh instances, marks, the grader's own files, and calls into the target.
import type realFs from "node:fs";
import path from "node:path";
import { resolveArgs, runCall } from "./call.js";
import type { CallResult, Step } from "./protocol.js";
import type { Recorder } from "./recorder.js";

export interface StepsEnv {
  /** A fresh module instance; throws what the target's import threw. */
  instantiate(): Record<string, unknown>;
  /** The `fs` the grader's own files go through (recorded, so crash states keep them). */
  fs: typeof realFs;
  recorder: Recorder;
}

/** Runs `steps` over the scenario folder `root`; returns what each call did. */
export function runSteps(steps: Step[], root: string, env: StepsEnv): CallResult[] {
  const results: CallResult[] = [];
  let exports: Record<string, unknown> | Error | null = null;
  for (const step of steps) {
    if ("fresh" in step) exports = null;
    else if ("mark" in step) env.recorder.mark(step.mark);
    else if ("put" in step) {
      const file = path.join(root, step.put);
      env.fs.mkdirSync(path.dirname(file), { recursive: true });
      env.fs.writeFileSync(file, step.content);
    } else {
      exports ??= importOrError(env.instantiate);
      env.recorder.mark(`call:${step.call}`);
      results.push(runCall(exports, step.call, resolveArgs(step.args, root), root));
      env.recorder.mark(`return:${step.call}`);
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
