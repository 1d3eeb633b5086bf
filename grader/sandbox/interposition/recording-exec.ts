// The `child_process` module a target receives: Node's own, with three changes. Every command runs
// with the grader's fixed git environment (see ../git/git-env.ts), whatever environment the target
// passes. Programs run only synchronously: an asynchronous one (spawn, exec, execFile, fork) would
// change the disk while the grader cannot see it, so it is refused by name. And while a scenario is
// recorded, a synchronous command's effect on the scenario
// folder (a program's file operations cannot be seen one by one) is recorded as operations that
// could have made it, with the real program's atomicity (see external-ops.ts), under a mark that
// names the command in the target's words, without the grader's folders (external/command-label.ts).
// A shell line of several programs runs with a probe between them (external/probed-line.ts), so
// that their effects are told one program after the other; the target sees the line it wrote.
import realChildProcess from "node:child_process";
import path from "node:path";
import { COMMAND_PREFIX, isGitCommand } from "../../crash/commands.js";
import type { FsOp } from "../../crash/model.js";
import { externalOps, snapshot } from "./external-ops.js";
import { charged } from "../messages/cpu-causes.js";
import { commandLabel, relativeTo } from "./external/command-label.js";
import { isShellProgram, type Invocation } from "../../crash/command-line.js";
import { probedLine, probePlan } from "./external/probed-line.js";
import { gitEnv } from "../git/git-env.js";
import type { Recorder } from "./recorder.js";

type AnyFn = (...args: any[]) => any;

/** How a synchronous call takes its command: a program and an array of arguments (`withArgs`: execFileSync, spawnSync), or one shell string (execSync). */
interface CallForm {
  withArgs: boolean;
}

/** What a caller of the recording `child_process` is told of each synchronous command. */
export interface CommandHooks {
  /** Before the command runs, with its label (a writer that waits for its turn). */
  beforeCommand?: (command: string) => void;
  /** After it ran, with its operations, even when nothing is kept (a real process that counts them to be killed at one). */
  afterCommand?: (command: string, ops: FsOp[]) => void;
  /** After any command ended, recorded or not (costs nothing: the folder is not listed for it). */
  ended?: () => void;
}

/** Returns a `child_process` look-alike that records into whatever `current()` returns at call time. */
export function createRecordingChildProcess(current: () => Recorder | null, options: CommandHooks = {}) {
  /** The options with the grader's environment; `at` is where the options argument is. */
  const withEnv = (args: unknown[], at: number): unknown[] => {
    const copy = [...args];
    while (copy.length < at) copy.push(undefined);
    const given = copy[at];
    const options = given && typeof given === "object" && !Array.isArray(given) ? (given as { env?: NodeJS.ProcessEnv }) : {};
    // Git's messages go into the error a failed command throws, not into the grader's own output.
    copy[at] = { stdio: "pipe", ...options, env: gitEnv(options.env ?? process.env, current()?.root) };
    return copy;
  };
  /** Where the options argument of a call is: after the arguments array when there is one. */
  const optionsAt = (args: unknown[], form: CallForm) => (form.withArgs && Array.isArray(args[1]) ? 2 : 1);

  /** Runs a synchronous command; records what it changed when the scenario is recorded. */
  function recorded(fn: AnyFn, form: CallForm): AnyFn {
    return (...args: unknown[]) => {
      const rec = current();
      // A program may read anything on the disk: its run's footprint is not known.
      rec?.lookedBeyond("it ran a program");
      const call = withEnv(args, optionsAt(args, form));
      if (!rec || (!rec.keep && !options.afterCommand && !options.beforeCommand)) {
        try {
          return startsProgram(() => fn(...call));
        } finally {
          options.ended?.();
        }
      }
      const invocation = invocationOf(args, form, call[optionsAt(args, form)] as { cwd?: unknown; shell?: unknown });
      const plan = runsPosixShell(call[optionsAt(args, form)]) ? probePlan(invocation) : null;
      // Git's model needs no digests of content (objects are named by it, other files by their
      // times), unless probes are to keep what files held between programs.
      const git = isGitCommand("script" in invocation ? invocation.script : [invocation.file, ...invocation.args].join(" "));
      const digests = !git || plan !== null;
      const before = snapshot(rec.root, { digests });
      options.beforeCommand?.(commandLabel(invocation, { relative: relativeTo(rec.root), known: (p) => before.has(p) }));
      const probed = plan && probedLine(invocation, plan, rec.root, before);
      try {
        if (!probed) return startsProgram(() => fn(...call));
        return probed.restore(startsProgram(() => fn(...callRunning(call, form, probed.run))));
      } catch (error) {
        throw probed ? probed.restore(error) : error;
      } finally {
        const after = snapshot(rec.root, { digests });
        const command = commandLabel(invocation, { relative: relativeTo(rec.root), known: (p) => before.has(p) || after.has(p) });
        let ops: FsOp[];
        try {
          ops = externalOps(rec.root, before, after, `${COMMAND_PREFIX}${command}`, () => rec.syntheticFd(), invocation, probed ?? undefined);
        } finally {
          probed?.probes.close();
        }
        rec.mark(`${COMMAND_PREFIX}${command}`);
        for (const op of ops) rec.push(op);
        options.afterCommand?.(command, ops);
        options.ended?.();
      }
    };
  }

  return {
    ...realChildProcess,
    execFileSync: recorded(realChildProcess.execFileSync, { withArgs: true }),
    execSync: recorded(realChildProcess.execSync, { withArgs: false }),
    spawnSync: recorded(realChildProcess.spawnSync, { withArgs: true }),
    execFile: refusedAsync("execFile"),
    exec: refusedAsync("exec"),
    spawn: refusedAsync("spawn"),
    fork: refusedAsync("fork"),
  };
}

/** Runs a program to its end, the processor time this process spends on it (starting it, waiting for it) charged to "spawn" (GRADE_CPU_CAUSES). */
function startsProgram<T>(run: () => T): T {
  return charged("spawn", run, { before: "target" });
}

/** An asynchronous way to run a program, which throws an error that names it and says what to use instead. */
function refusedAsync(name: string): () => never {
  return () => {
    const error = new Error(
      `child_process.${name} is not supported by the lab's grader: a program that runs while your code goes on changes the disk where the grader cannot see it or crash it. ` +
        "Run programs synchronously, with execFileSync, execSync or spawnSync (the lab's functions are synchronous).",
    );
    throw Object.assign(error, { code: "ERR_LAB_UNSUPPORTED" });
  };
}

/** Whether a shell string runs in a POSIX shell: execSync's and `shell: true`'s /bin/sh, or a `shell` option that names one. */
function runsPosixShell(options: unknown): boolean {
  const shell = (options as { shell?: unknown } | undefined)?.shell;
  return typeof shell !== "string" || isShellProgram(path.basename(shell));
}

/** The call's arguments with `run` (the invocation with its probes) in place of the target's command. */
function callRunning(call: unknown[], form: CallForm, run: Invocation): unknown[] {
  const copy = [...call];
  if ("script" in run) {
    copy[0] = run.script;
    // A shell string given as a file and its arguments (`shell: true`) is run as their join: it is all in the first word now.
    if (form.withArgs && Array.isArray(copy[1])) copy[1] = [];
  } else copy[1] = run.args;
  return copy;
}

/** How the target ran a command: a program with arguments, or a shell string; in which folder. */
function invocationOf(args: unknown[], form: CallForm, options: { cwd?: unknown; shell?: unknown } | undefined): Invocation {
  const cwd = path.resolve(typeof options?.cwd === "string" ? options.cwd : options?.cwd instanceof URL ? options.cwd.pathname : process.cwd());
  const words = [String(args[0]), ...(form.withArgs && Array.isArray(args[1]) ? args[1].map(String) : [])];
  // execSync always runs a shell; execFileSync and spawnSync only when asked to.
  if (!form.withArgs || options?.shell) return { script: words.join(" "), cwd };
  return { file: words[0]!, args: words.slice(1), cwd };
}
