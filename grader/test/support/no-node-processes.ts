// The `grader` project's tests run two at a time (vitest.config.ts), so none may start what owns
// the machine: a Node process (every grade, sandbox host and session is one), a terminal or a
// browser. A test that does belongs in the `machine` project, which runs one file at a time; this
// file, loaded before each test file of the `grader` project, makes such a test fail saying so.
import childProcess from "node:child_process";
import path from "node:path";
import { syncBuiltinESMExports } from "node:module";

/** Programs that take a processor or a screen for seconds: Node itself, a terminal, a browser. */
function ownsTheMachine(file: string): boolean {
  const name = path.basename(file);
  return file === process.execPath || ["node", "script", "tmux"].includes(name) || /chrom(e|ium)/.test(name);
}

const starters = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
for (const name of starters) {
  const real = childProcess[name] as (...args: unknown[]) => unknown;
  (childProcess as Record<string, unknown>)[name] = (...args: unknown[]) => {
    // fork always starts Node; exec and execSync run a shell line, whose first word is the program.
    const file = name === "fork" ? process.execPath : name === "exec" || name === "execSync" ? String(args[0]).trim().split(/\s+/)[0]! : String(args[0]);
    if (ownsTheMachine(file)) throw new Error(`this test started ${path.basename(file)} (${name}); a test that starts Node, a terminal or a browser runs in the \`machine\` project: add its file to MACHINE in vitest.config.ts, with why`);
    return real(...args);
  };
}
syncBuiltinESMExports();
