// Starts the sandbox host in program mode as a real process (through execa) and reads back
// what it did: its exit, the signal that killed it, the calls' results, the write it tore.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import type { KillRule, ProgramConfig } from "./program.js";
import type { CallResult, Step } from "./protocol.js";

export interface ProgramOutcome {
  exitCode?: number;
  signal?: string;
  timedOut: boolean;
  /** The end of what the process printed (at most 64 KiB of each stream). */
  stdout: string;
  stderr: string;
  results: CallResult[] | null;
  /** How many changes to the disk the target made (when it exited by itself). */
  changes: number | null;
  /** The write that was torn when the process was killed mid-write. */
  torn: { api: string; file: string | null; written: number; of: number } | null;
}

/** Makes a scenario folder (work/, tmp/, cwd/) under `root`. */
export function makeScenarioFolder(root: string): string {
  for (const sub of ["work", "tmp", "cwd"]) fs.mkdirSync(path.join(root, sub), { recursive: true });
  return root;
}

/** Runs `steps` (or the program, with `argv`) in a new process over the folder `root`. */
export async function runProcess(
  hostFile: string,
  opts: { bundle: string; entry: string; targetDir: string; root: string; cwd?: string; steps?: Step[]; argv?: string[]; kill?: KillRule; effectsFile?: string; timeoutMs: number },
): Promise<ProgramOutcome> {
  const resultFile = path.join(opts.root, "result.json");
  const killNote = path.join(opts.root, "kill-note.json");
  const statsFile = path.join(opts.root, "stats.json");
  for (const f of [resultFile, killNote, statsFile]) fs.rmSync(f, { force: true });
  const config: ProgramConfig = { ...opts, resultFile, killNote, statsFile };
  const run = await execa(process.execPath, ["--max-old-space-size=2048", hostFile, "--program", JSON.stringify(config)], {
    reject: false,
    timeout: opts.timeoutMs,
    stdin: "ignore",
    maxBuffer: 4 * 1024 * 1024,
    stripFinalNewline: false,
  });
  return {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    stdout: String(run.stdout ?? "").slice(-65536),
    stderr: String(run.stderr ?? "").slice(-65536),
    results: readJson(resultFile) as CallResult[] | null,
    torn: readJson(killNote) as ProgramOutcome["torn"],
    changes: (readJson(statsFile) as { changes: number } | null)?.changes ?? null,
  };
}

/** The time a real target process gets; generous, so a correct one never meets it. */
export const PROCESS_TIMEOUT_MS = 60_000;

/** Why a process that should have made all its calls did not, or null; `calls` names them ("its calls"). */
export function unfinished(p: ProgramOutcome, calls = "its calls"): string | null {
  if (p.timedOut) return `the process did not finish within ${PROCESS_TIMEOUT_MS / 1000} s`;
  if (p.signal) return `the process was killed by ${p.signal}`;
  if (!p.results) return `the process exited with code ${p.exitCode} before ${calls} finished`;
  return null;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}
