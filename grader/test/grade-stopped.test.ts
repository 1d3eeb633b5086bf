// A grade stopped from outside (Ctrl-C in a terminal, grade-batch's time limit, --watch quitting)
// removes the scratch folder it made on the tmpfs, even when the signal comes in the first
// moments after the folder was made, before the grade has started anything else.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { LAUNCH } from "./support/grade.js";
import { processesMentioning } from "./support/processes.js";

const SCRATCH = "/dev/shm";

/** When the signal is sent: a time after the scratch folder appears, or once the first check has finished (its workers and sandbox hosts running). */
type When = { afterMs: number } | "first verdict";

/**
 * Starts a grade of the solution's Phase 1, waits for its scratch folder to appear, sends `signal`
 * `when` says, and gives the grade's exit code, whether that folder is still there once it ended,
 * and the processes still running from it.
 */
async function stopGrade(signal: NodeJS.Signals, when: When): Promise<{ exitCode: number | undefined; left: boolean; running: string[] }> {
  const before = new Set(fs.readdirSync(SCRATCH));
  let appeared!: (name: string) => void;
  const folder = new Promise<string>((resolve) => (appeared = resolve));
  const watcher = fs.watch(SCRATCH, (_event, name) => {
    if (name?.startsWith("checkpoint-grade-") && !before.has(name)) appeared(name);
  });
  try {
    const run = execa(process.execPath, [LAUNCH, "--target", SOLUTION_DIR, "--only", "phase1", "--no-cache"], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1" } });
    const ended = run.then((r) => Promise.reject(new Error(`the grade ended before the signal:\n${r.stdout}\n${r.stderr}`)));
    const name = await Promise.race([folder, ended]);
    const work = path.join(SCRATCH, name);
    if (when === "first verdict") {
      const verdicts = path.join(work, "verdicts");
      const seen = (async () => {
        while (!fs.existsSync(verdicts) || fs.readdirSync(verdicts).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      })();
      await Promise.race([seen, ended]);
    } else {
      await new Promise((resolve) => setTimeout(resolve, when.afterMs));
    }
    run.kill(signal);
    const { exitCode } = await run;
    return { exitCode, left: fs.existsSync(work), running: processesMentioning(work) };
  } finally {
    watcher.close();
  }
}

test.each([
  { signal: "SIGINT", label: "as its scratch folder appears", when: { afterMs: 0 }, code: 130 },
  { signal: "SIGINT", label: "50 ms after its scratch folder appears", when: { afterMs: 50 }, code: 130 },
  { signal: "SIGTERM", label: "as its scratch folder appears", when: { afterMs: 0 }, code: 143 },
  { signal: "SIGINT", label: "once its first check has finished", when: "first verdict", code: 130 },
  { signal: "SIGTERM", label: "once its first check has finished", when: "first verdict", code: 143 },
] as const)("a grade sent $signal $label exits with code $code, leaves no scratch folder and no process running from it", async ({ signal, when, code }) => {
  const stopped = await stopGrade(signal, when);
  expect(stopped).toEqual({ exitCode: code, left: false, running: [] });
});
