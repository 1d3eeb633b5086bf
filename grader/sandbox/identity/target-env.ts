// The environment every process that runs target code starts with: fixed and minimal, so a
// submission finds nothing to follow (no npm_* or INIT_CWD naming the grader's folder, no PWD, no
// OLDPWD, no token), and a grade does not depend on the shell it was started from.
import fs from "node:fs";
import path from "node:path";

/** The system's folders of programs, in the order a login shell has them. */
const SYSTEM_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

let gitFolder: string | null | undefined;

/** The folder git is in, when it is not one of the system's (Homebrew, a tool cache); null otherwise. */
function gitOutsideSystem(env: NodeJS.ProcessEnv): string | null {
  if (gitFolder === undefined) {
    const git = process.platform === "win32" ? "git.exe" : "git";
    const inSystem = SYSTEM_PATH.some((dir) => fs.existsSync(path.join(dir, git)));
    gitFolder = inSystem ? null : ((env.PATH ?? "").split(path.delimiter).find((dir) => dir && fs.existsSync(path.join(dir, git))) ?? null);
  }
  return gitFolder;
}

/** Variables Windows itself needs to start programs. */
const WINDOWS_KEPT = ["SystemRoot", "SYSTEMROOT", "windir", "ComSpec", "PATHEXT", "TEMP", "TMP"];

/** The environment of a target's process: PATH (the system's programs and git), HOME, a fixed locale. */
export function targetEnv(home: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const git = gitOutsideSystem(env);
  const out: NodeJS.ProcessEnv = {
    PATH: [...(git ? [git] : []), ...SYSTEM_PATH].join(path.delimiter),
    HOME: home,
    LANG: "C.UTF-8",
  };
  if (process.platform === "win32") {
    for (const key of WINDOWS_KEPT) if (env[key] !== undefined) out[key] = env[key];
    out.PATH = env.PATH;
  }
  return out;
}
