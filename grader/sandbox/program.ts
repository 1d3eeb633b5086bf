// Program mode: the host runs one scenario as a real process of its own and may be killed for
// real (SIGKILL) in the middle of a chosen write, as the handout's literal scenarios ask.
import fs from "node:fs";
import path from "node:path";
import { resolveArgs, runCall } from "./call.js";
import { CompiledTarget } from "./instance.js";
import type { Step } from "./protocol.js";
import { Recorder, type BeforeOp } from "./recorder.js";
import { PendingOps, createRecordingFs } from "./recording-fs.js";

export interface ProgramConfig {
  bundle: string;
  targetDir: string;
  /** The scenario folder, with work/, tmp/ and cwd/ already made. */
  root: string;
  steps: Step[];
  /** Kill this process with SIGKILL during its `nthWrite`-th write, once `fraction` of its bytes are written. */
  kill?: { nthWrite: number; fraction: number };
  /** Where to write the calls' results as JSON (never to stdout, which the target shares). */
  resultFile: string;
  /** Where to note which write was torn, just before the kill. */
  killNote?: string;
}

/** Runs the steps with the real process id, writes the results, and exits. */
export async function runProgram(config: ProgramConfig): Promise<void> {
  const pending = new PendingOps();
  const recorder = new Recorder(config.root, undefined, config.kill && killDuringWrite(config), false);
  const recordingFs = createRecordingFs(() => recorder, pending);
  process.chdir(path.join(config.root, "cwd"));
  process.env.TMPDIR = path.join(config.root, "tmp");
  const results = [];
  let exports: Record<string, unknown> | Error | null = null;
  for (const step of config.steps) {
    if ("fresh" in step) exports = null;
    else if ("call" in step) {
      exports ??= instantiate(config, recordingFs);
      results.push(runCall(exports, step.call, resolveArgs(step.args, config.root), config.root));
    }
  }
  await pending.settle();
  fs.writeFileSync(config.resultFile, JSON.stringify(results));
  process.exit(0);
}

function instantiate(config: ProgramConfig, recordingFs: unknown): Record<string, unknown> | Error {
  try {
    return new CompiledTarget(config.bundle, config.targetDir).instantiate({ fs: recordingFs, provided: {}, pid: process.pid });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A hook that tears the n-th write: writes part of its bytes for real, then SIGKILLs the process. */
function killDuringWrite(config: ProgramConfig): BeforeOp {
  const kill = config.kill!;
  let writes = 0;
  return (op, realFd) => {
    if (op.kind !== "write" || realFd === undefined || ++writes !== kill.nthWrite) return;
    const keep = Math.floor(op.bytes.byteLength * kill.fraction);
    fs.writeSync(realFd, op.bytes, 0, keep, op.position);
    if (config.killNote) {
      const file = openedPath(realFd, config.root);
      fs.writeFileSync(config.killNote, JSON.stringify({ api: op.api, file, written: keep, of: op.bytes.byteLength }));
    }
    process.kill(process.pid, "SIGKILL");
  };
}

/** The file a descriptor is open on, relative to the scenario's work folder (Linux), or null. */
function openedPath(fd: number, root: string): string | null {
  try {
    return path.relative(path.join(root, "work"), fs.readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    return null;
  }
}
