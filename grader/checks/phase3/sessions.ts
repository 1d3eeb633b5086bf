// Phase 3 sessions as real processes: `session --checkpoint <file> [--max-steps <n>]`, each one
// a process of its own over the same folder; the lab's side effects come back on each process's channel.
import fs from "node:fs";
import path from "node:path";
import type { SideEffect } from "../../../lab/task.js";
import type { CheckContext } from "../../grading/context.js";
import type { KillRule } from "../../sandbox/messages/process.js";
import { deathCause } from "../../sandbox/supervisor/limits.js";
import { formatSeconds } from "../../sandbox/messages/limits.js";
import { makeScenarioFolder, type ProcessOutcome } from "../../sandbox/supervisor/process-client.js";
import { scrubPaths } from "../../sandbox/messages/paths.js";
import { STEPS, type Done } from "../phase2/ledger.js";


let folders = 0;

/** A folder where sessions run one after another, sharing one checkpoint. */
export class SessionFolder {
  private readonly root: string;
  /** The side effects the sessions reported so far, in order (kept by the grader, out of the target's reach). */
  private readonly effects: SideEffect[] = [];
  readonly checkpoint: string;
  /** Process ids in the order their sessions started, to name them "session 1", "session 2". */
  private readonly pids: number[] = [];

  constructor(private readonly ctx: CheckContext) {
    this.root = makeScenarioFolder(path.join(ctx.config.work, `${ctx.checkId}-${++folders}`));
    this.checkpoint = path.join(this.root, "work", "task-checkpoint.json");
  }

  /** Runs one session as a new process; `kill` has it killed for real at a chosen point. */
  async run(maxSteps?: number, kill?: KillRule): Promise<ProcessOutcome & { command: string }> {
    const argv = ["--checkpoint", this.checkpoint, ...(maxSteps === undefined ? [] : ["--max-steps", String(maxSteps)])];
    // Each session starts in an empty working folder of its own: only --checkpoint links them.
    const cwd = fs.mkdtempSync(path.join(this.root, "cwd-"));
    const outcome = await this.ctx.process({
      bundle: this.ctx.bundles.session!,
      entry: "session.ts",
      targetDir: this.ctx.config.targetDir,
      root: this.root,
      cwd,
      argv,
      kill,
    });
    this.effects.push(...outcome.effects);
    const shown = (text: string) => shownOutput(text, { cwd, root: this.root, pid: outcome.pid });
    return { ...outcome, stdout: shown(outcome.stdout), stderr: shown(outcome.stderr), command: `session --checkpoint task-checkpoint.json${maxSteps === undefined ? "" : ` --max-steps ${maxSteps}`}` };
  }

  /** The side effects performed so far, each named by the session (1, 2, ...) that performed it. */
  record(): Done[] {
    for (const e of this.effects) if (!this.pids.includes(e.pid)) this.pids.push(e.pid);
    return this.effects.filter((e) => e.phase === "done").map((e) => ({ step: e.step, input: e.input, output: e.output, run: this.pids.indexOf(e.pid) + 1 }));
  }

  /** How many steps have entered runStep in total (the kill needs to know that nothing more ran). */
  entered(): number {
    return this.effects.filter((e) => e.phase === "enter").length;
  }
}

/**
 * Null when a session exited 0 and its last line of output is {"status", "nextStep"} as
 * expected after `stepsDone` steps; otherwise what it did instead.
 */
export function checkSession(o: ProcessOutcome & { command: string }, stepsDone: number): string | null {
  const status = stepsDone >= STEPS ? "done" : "paused";
  const expected = `{"status":"${status}","nextStep":${stepsDone + 1}}`;
  if (o.timedOut) {
    const printed = lastLine(o.stdout);
    const after = printed ? `printed ${clip(printed)} but then` : "";
    return `\`${o.command}\` ${after} did not finish within ${formatSeconds(o.limits.processMs)} (is a timer, a server or an open handle keeping the process alive?)`.replace("  ", " ");
  }
  const death = deathCause((o.signal ?? null) as NodeJS.Signals | null, o.stderr, o.limits);
  if (death) return `\`${o.command}\` ${death}`;
  if (o.exitCode !== 0) return `\`${o.command}\` exited with code ${o.exitCode}${lastErrorLine(o.stderr) ? `: ${clip(lastErrorLine(o.stderr))}` : ""}`;
  const line = lastLine(o.stdout);
  let parsed: { status?: unknown; nextStep?: unknown } | null = null;
  try {
    parsed = JSON.parse(line);
  } catch {}
  if (!parsed || typeof parsed !== "object") {
    return `\`${o.command}\` ${line ? `printed ${JSON.stringify(clip(line))} as its last line` : "printed nothing"}; expected a last line of JSON like ${expected}`;
  }
  if (parsed.status !== status || parsed.nextStep !== stepsDone + 1) return `\`${o.command}\` printed ${clip(line)}; expected ${expected} after ${stepsDone} of ${STEPS} steps`;
  return null;
}

/** The last line a process printed, trimmed ("" when none): a session's status line. */
export function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1)?.trim() ?? "";
}

/**
 * What a session printed as its messages show it, the same from grade to grade: a path in its
 * working folder as the student named it ("x.json"), the checkpoint's folder's as the command
 * line names it, and its process id as "<pid>" (the session's folder and id change every run).
 */
export function shownOutput(text: string, session: { cwd: string; root: string; pid: number | null }): string {
  const paths = scrubPaths(text.split(session.cwd + path.sep).join("").split(session.cwd).join("."), session.root);
  return session.pid === null ? paths : paths.replace(new RegExp(`(?<![0-9])${session.pid}(?![0-9])`, "g"), "<pid>");
}

/** The last line of an error output that says something: not Node's own "Node.js v20..." footer. */
function lastErrorLine(text: string): string {
  return text.split("\n").map((l) => l.trim()).filter((l) => l && !/^Node\.js v\d/.test(l)).at(-1) ?? "";
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
