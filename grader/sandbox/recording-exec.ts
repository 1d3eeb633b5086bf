// The `child_process` module a target receives: Node's own, with two changes. Every command runs
// with the grader's fixed git environment (see git-env.ts), whatever environment the target
// passes. And while a scenario is recorded, a synchronous command's effect on the scenario
// folder (git is native code: its file operations cannot be seen one by one) is recorded as the
// operations that turn the folder before it into the folder after it (see external-ops.ts).
import realChildProcess from "node:child_process";
import { COMMAND_PREFIX } from "../crash/commands.js";
import { externalOps, snapshot } from "./external-ops.js";
import { gitEnv } from "./git-env.js";
import type { Recorder } from "./recorder.js";

type AnyFn = (...args: any[]) => any;

/** Returns a `child_process` look-alike that records into whatever `current()` returns at call time. */
export function createRecordingChildProcess(current: () => Recorder | null) {
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
  const optionsAt = (args: unknown[], withArgs: boolean) => (withArgs && Array.isArray(args[1]) ? 2 : 1);

  /** Runs a synchronous command; records what it changed when the scenario is recorded. */
  function recorded(fn: AnyFn, withArgs: boolean): AnyFn {
    return (...args: unknown[]) => {
      const rec = current();
      const call = withEnv(args, optionsAt(args, withArgs));
      if (!rec?.keep) return fn(...call);
      const words = [String(args[0]), ...(withArgs && Array.isArray(args[1]) ? args[1].map(String) : [])];
      const command = words.map((w) => (/^[\w./:=@%+-]+$/.test(w) ? w : JSON.stringify(w))).join(" ");
      rec.mark(`${COMMAND_PREFIX}${command}`);
      const before = snapshot(rec.root);
      try {
        return fn(...call);
      } finally {
        for (const op of externalOps(rec.root, before, snapshot(rec.root), `${COMMAND_PREFIX}${command}`, () => rec.syntheticFd())) rec.push(op);
      }
    };
  }

  /** An asynchronous command: the grader's environment, nothing recorded (the lab's contract is synchronous). */
  function passed(fn: AnyFn, withArgs: boolean): AnyFn {
    return (...args: unknown[]) => {
      const last = args.at(-1);
      const callback = typeof last === "function" ? [args.pop()] : [];
      return fn(...withEnv(args, optionsAt(args, withArgs)), ...callback);
    };
  }

  return {
    ...realChildProcess,
    execFileSync: recorded(realChildProcess.execFileSync, true),
    execSync: recorded(realChildProcess.execSync, false),
    spawnSync: recorded(realChildProcess.spawnSync, true),
    execFile: passed(realChildProcess.execFile, true),
    exec: passed(realChildProcess.exec, false),
    spawn: passed(realChildProcess.spawn, true),
  };
}
