// The entry of the host bundle (supervisor/build-host.ts), in every mode: the child reads its mode
// from its command line, then serves the grader's requests (runtime/serve.ts), runs as a real
// process of the target's (runtime/process.ts), or as an actor (runtime/actor.ts).
import fs from "node:fs";
import { CPU_CAUSES_ENV, startCpuLedger } from "../messages/cpu-causes.js";
import { MODE_FLAGS, PROFILE_EXIT_SIGNAL, belowShell } from "../messages/launch.js";
import { runActor } from "./actor.js";
import { Host } from "./host.js";
import { runAsProcess } from "./process.js";
import { serve } from "./serve.js";
import { useLabSteps } from "./target/lab-module.js";
import { closeProcessBindings } from "./target/closed-doors.js";

/**
 * Ends this process once its parent is gone, even while the target's code spins in the main
 * thread (a worker thread keeps watching, and a kill from it ends the whole process). Below a
 * shell, the parent is the shell, and the grader ends this process itself when the shell ends
 * (a target that killed its parent): the thread, which costs about 0.1 s of CPU, is then not started.
 */
function guardAgainstOrphaning(): void {
  if (belowShell()) return;
  const parent = process.ppid;
  // Loaded here, not at the top, so that below a shell no process pays for loading it (the host
  // always runs as a CommonJS bundle, where require is at hand).
  const { Worker } = require("node:worker_threads") as typeof import("node:worker_threads");
  const guard = new Worker(`setInterval(() => { if (process.ppid !== ${parent}) process.kill(process.pid, "SIGKILL"); }, 500);`, { eval: true });
  guard.unref();
}

// The student's frames are picked out of the stack: keep enough of it to reach them.
Error.stackTraceLimit = 50;
// Profiled (GRADE_CPU_PROFILE or GRADE_CPU_CAUSES, supervisor/child.ts): the grader asks before it
// kills, and the profile is written on the way out.
if (process.execArgv.includes("--cpu-prof") || process.env[CPU_CAUSES_ENV]) process.on(PROFILE_EXIT_SIGNAL, () => process.exit(0));
/** A mode's configuration, once the lab task it serves has the steps it names. */
function configured<T extends { labSteps?: number }>(config: T): T {
  useLabSteps(config.labSteps);
  return config;
}

const [mode, configJson] = process.argv.slice(2);
closeProcessBindings();
startCpuLedger(mode === MODE_FLAGS.serve ? "host" : mode === MODE_FLAGS.process ? "process" : "actor");
if (mode === MODE_FLAGS.serve) serve(new Host(configured(JSON.parse(configJson!))), guardAgainstOrphaning);
// A process's or an actor's configuration comes on standard input, read before the target's code runs.
else if (mode === MODE_FLAGS.process) runAsProcess(configured(JSON.parse(fs.readFileSync(0, "utf8"))), guardAgainstOrphaning);
else if (mode === MODE_FLAGS.actor) runActor(configured(JSON.parse(fs.readFileSync(0, "utf8"))), guardAgainstOrphaning);
