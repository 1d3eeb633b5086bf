// `npm run grade -- --watch` in a real terminal (tmux): it grades, showing the live progress line
// while it does, grades again on a save (only what changed: the rest from the cache), says so when
// a file does not compile and waits for the next save, and quits on q, leaving no process and no
// scratch folder behind.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { prose } from "./support/grade.js";

const SESSION = `grade-watch-${process.pid}`;
const tmux = (...args: string[]) => execa("tmux", args, { reject: false });
const pane = async () => String((await tmux("capture-pane", "-p", "-J", "-t", SESSION, "-S", "-200")).stdout);

/** Waits until the pane's text (wrapping undone) matches `pattern`; fails with the pane's text when it does not within `ms`. */
async function until(pattern: RegExp, ms = 90_000): Promise<string> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
    const text = prose(await pane());
    if (pattern.test(text)) return text;
  }
  throw new Error(`the terminal never showed ${pattern}; it showed:\n${await pane()}`);
}

/** Node processes (a watch, a grade, a sandbox) whose command line names `target`: the terminal's own shell aside. */
function nodeProcessesOn(target: string): string[] {
  return fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p)).flatMap((pid) => {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return path.basename(argv[0]!) === "node" && argv.some((a) => a.includes(target)) ? [argv.join(" ")] : [];
    } catch {
      return [];
    }
  });
}

const scratch = () => fs.readdirSync("/dev/shm").filter((n) => n.startsWith("checkpoint-grade-"));

test("--watch grades with the live progress line, grades again on a save, tells a file that does not compile, and quits on q with nothing left running", async () => {
  const folder = await dir({ unsafeCleanup: true });
  const target = path.join(folder.path, "t");
  fs.cpSync(SOLUTION_DIR, target, { recursive: true });
  const before = new Set(scratch());
  try {
    const command = `cd ${REPO_ROOT} && CI= XDG_CACHE_HOME=${folder.path}/cache node grader/cli/launch.mjs --target ${target} --only stretch-diff --watch; echo WATCH-ENDED $?; sleep 600`;
    await tmux("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "50", command);
    // While it grades: the live line of what still runs (seconds, crash states, the check running).
    await until(/\d+ s · [\d,]+ crash states? · stretch-diff check \d of 3/);
    await until(/10\/10 \(bonus\).*Watching .* press q to quit/);
    const good = fs.readFileSync(path.join(target, "diff.ts"), "utf8");
    // A screen cleared for each grade: what was printed before is gone.
    fs.writeFileSync(path.join(target, "diff.ts"), `${good}\nexport const broken = ;\n`);
    const broken = await until(/does not compile.*Watching/);
    expect(broken).toContain("diff.ts does not compile: diff.ts:");
    expect(broken.split("Checkpoint lab: grading").length).toBe(2);
    fs.writeFileSync(path.join(target, "diff.ts"), good);
    const fixed = await until(/earned 10.*from the cache.*Watching/);
    expect(fixed).not.toContain("does not compile");
    await tmux("send-keys", "-t", SESSION, "q");
    await until(/WATCH-ENDED 0/, 30_000);
    expect(nodeProcessesOn(target)).toEqual([]);
    expect(scratch().filter((n) => !before.has(n))).toEqual([]);
  } finally {
    await tmux("kill-session", "-t", SESSION);
    await folder.cleanup();
  }
});
