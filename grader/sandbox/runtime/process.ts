// Process mode: the host runs a target as a real process of its own, which the grader may have
// killed for real (SIGKILL) at a chosen point: in the middle of its n-th write, before its n-th
// change to the disk, or as runStep(n) is entered. Either it makes a list of calls (steps) or it
// runs the target as a program with a command line (a Phase 3 session).
import fs from "node:fs";
import path from "node:path";
import { changesDisk } from "../../crash/trace.js";
import type { FsOp } from "../../crash/model.js";
import { summarizeError } from "./target/call.js";
import { CompiledTarget } from "./target/instance.js";
import { LAB_SPECIFIER, labModule } from "./target/lab-module.js";
import { STAND_IN_SPECIFIER, standInModule } from "./target/stand-in-module.js";
import type { KillRule, ProcessConfig, Torn } from "../messages/process.js";
import { Recorder, type BeforeOp } from "../interposition/recorder.js";
import { PendingOps, createRecordingFs } from "../interposition/recording-fs.js";
import { createRecordingChildProcess } from "../interposition/recording-exec.js";
import { runScenarioSteps } from "./target/scenario-steps.js";
import { report } from "./pipes.js";

/** Runs the scenario with the real process id; in steps mode, writes the results and exits. */
export async function runAsProcess(config: ProcessConfig, guard: () => void): Promise<void> {
  guard();
  report({ pid: process.pid });
  const kill = config.kill ?? {};
  const pending = new PendingOps();
  const counter = { changes: 0 };
  const hooks = killHooks(config, kill, counter, () => recorder.standInSave);
  const recorder: Recorder = new Recorder(config.root, { beforeOp: hooks.beforeOp, keep: false });
  process.on("exit", () => report({ changes: counter.changes }));
  const recordingFs = createRecordingFs(() => recorder, pending);
  const childProcess = createRecordingChildProcess(() => recorder, { afterCommand: hooks.afterCommand });
  const lab = labModule((effect) => {
    if (effect.phase === "enter" && effect.step === kill.enterStep) die({ api: `runStep(${effect.step})`, file: null, written: 0, of: 0 });
    report({ effect });
  }, () => process.pid);
  process.chdir(config.cwd ?? path.join(config.root, "cwd"));
  process.env.TMPDIR = path.join(config.root, "tmp");
  process.env.HOME = path.join(config.root, "cwd");
  const entry = path.join(config.targetDir, config.entry);
  const target = new CompiledTarget(config.bundle, config.targetDir, entry);
  // A real process: its random numbers are the runtime's own, as any new process's are.
  const context = { fs: recordingFs, childProcess, provided: { [LAB_SPECIFIER]: lab, [STAND_IN_SPECIFIER]: standInModule(recordingFs, () => recorder) }, pid: process.pid, random: "real" as const };
  if (config.argv) {
    process.argv = [process.argv[0]!, entry, ...config.argv];
    const fail = (error: unknown) => {
      const e = summarizeError(error, config.root);
      const where = target.frames.of(error)[0];
      process.stderr.write(`${e.name}: ${e.message}${where ? ` (at ${where})` : ""}\n`);
      process.exitCode = 1;
    };
    try {
      await target.start({ ...context, realProcess: true }).done.catch(fail);
    } catch (error) {
      fail(error);
    }
    return;
  }
  const results = runScenarioSteps(config.steps ?? [], config.root, {
    instantiate: () => target.instantiate(context),
    fs: recordingFs,
    recorder,
    limitMs: config.callMs,
    frames: (error) => target.frames.of(error),
  });
  await pending.settle();
  report({ results });
  process.exit(0);
}

/**
 * The hooks that count writes and changes to the disk and kill the process at the one the rule
 * names: before each of the target's own operations, and after each command it runs, over the
 * operations that stand for what the command did. A SIGKILL of this process does not stop a
 * program it started, so a kill that lands inside a command lands as the command ends. A
 * grader's stand-in save is one change and no write: a kill lands before it or after it.
 */
function killHooks(config: ProcessConfig, kill: KillRule, counter: { changes: number }, standInSave: () => { counted: boolean } | null): { beforeOp: BeforeOp; afterCommand: (command: string, ops: FsOp[]) => void } {
  const hits = killPoint(kill, counter, standInSave);
  const beforeOp: BeforeOp = (op, realFd) => {
    const isWrite = op.kind === "write";
    if (!hits(op)) return;
    let written = 0;
    if (isWrite && realFd !== undefined) {
      written = Math.floor(op.bytes.byteLength * (kill.fraction ?? 0));
      fs.writeSync(realFd, op.bytes, 0, written, op.position);
    }
    const file = isWrite && realFd !== undefined ? openedPath(realFd, config.root) : "path" in op && op.path ? op.path.replace(/^@\/(work\/)?/, "") : null;
    die({ api: op.api, file, written, of: isWrite ? op.bytes.byteLength : 0 });
  };
  const afterCommand = (command: string, ops: FsOp[]) => {
    const hit = ops.find(hits);
    if (!hit) return;
    const opened = hit.kind === "write" ? ops.find((o) => o.kind === "open" && o.fd === hit.fd) : hit;
    const file = opened && "path" in opened && opened.path ? opened.path.replace(/^@\/(work\/)?/, "") : null;
    const bytes = hit.kind === "write" ? hit.bytes.byteLength : 0;
    die({ api: `\`${command}\``, file, written: bytes, of: bytes, command: true });
  };
  return { beforeOp, afterCommand };
}

/**
 * Counts the writes and the changes to the disk, and says whether an operation is the one `kill`
 * names. A grader's stand-in save (`standInSave()` set) counts as one change, at its first, and
 * as no write: a kill lands before it or after it, never inside.
 */
export function killPoint(kill: KillRule, counter: { changes: number }, standInSave: () => { counted: boolean } | null): (op: FsOp) => boolean {
  let writes = 0;
  return (op) => {
    const save = standInSave();
    if (save) {
      if (save.counted || !changesDisk(op)) return false;
      save.counted = true;
      return ++counter.changes === kill.nthChange;
    }
    return (op.kind === "write" && ++writes === kill.nthWrite) || (changesDisk(op) && ++counter.changes === kill.nthChange);
  };
}

/** Tells the grader what was being done, then kills this process for real. */
function die(torn: Torn): never {
  report({ torn });
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable: SIGKILL did not stop the process");
}

/** The file a descriptor is open on, relative to the scenario's work folder (Linux), or null. */
function openedPath(fd: number, root: string): string | null {
  try {
    return path.relative(path.join(root, "work"), fs.readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    return null;
  }
}
