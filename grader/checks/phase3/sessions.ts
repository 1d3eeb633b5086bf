// Phase 3 sessions as real processes: `session --checkpoint <file> [--max-steps <n>]`, each one
// a process of its own over the same folder; the lab's side effects come back on each process's channel.
import fs from "node:fs";
import path from "node:path";
import type { SideEffect } from "../../../lab/task.js";
import type { CheckContext } from "../../grading/context.js";
import type { KillRule } from "../../sandbox/messages/process.js";
import { deathCause } from "../../sandbox/supervisor/limits.js";
import { toldError, toldOutcome } from "../../grading/told.js";
import { makeScenarioFolder, notFinished, type ProcessOutcome } from "../../sandbox/supervisor/process-client.js";
import { scrubPaths } from "../../sandbox/messages/paths.js";
import type { Done, GradedTask } from "../phase2/ledger.js";


let folders = 0;

/** A folder where sessions run one after another, sharing one checkpoint. */
export class SessionFolder {
  private readonly root: string;
  /** The side effects the sessions reported so far, in order (kept by the grader, out of the target's reach). */
  private readonly effects: SideEffect[] = [];
  readonly checkpoint: string;
  /** Process ids in the order their sessions started, to name them "session 1", "session 2". */
  private readonly pids: number[] = [];
  /** Sessions started so far: the nth works in folder cwd-n. */
  private sessions = 0;

  constructor(private readonly ctx: CheckContext) {
    this.root = makeScenarioFolder(path.join(ctx.config.work, `${ctx.checkId}-${++folders}`));
    this.checkpoint = path.join(this.root, "work", "task-checkpoint.json");
  }

  /** Runs one session as a new process; `kill` has it killed for real at a chosen point. */
  async run(maxSteps?: number, kill?: KillRule): Promise<Session> {
    const argv = ["--checkpoint", this.checkpoint, ...(maxSteps === undefined ? [] : ["--max-steps", String(maxSteps)])];
    // Each session starts in an empty working folder of its own: only --checkpoint links them.
    // Named by its place, not at random: a path a session prints reads the same in every grade.
    const cwd = path.join(this.root, `cwd-${++this.sessions}`);
    fs.mkdirSync(cwd);
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
    // What it printed is judged as printed; only the story shows it normalised.
    const show = (text: string) => shownOutput(text, { cwd, root: this.root, pid: outcome.pid });
    return { ...outcome, show, command: `session --checkpoint task-checkpoint.json${maxSteps === undefined ? "" : ` --max-steps ${maxSteps}`}` };
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

/** A session's outcome as the process left it, with how it ran and how its output is shown in a story. */
export interface Session extends ProcessOutcome {
  /** `session --checkpoint task-checkpoint.json --max-steps 4`, as a story names it. */
  command: string;
  /** What it printed as a story shows it: its paths and process id normalised (see shownOutput). */
  show(text: string): string;
}

/**
 * Null when a session exited 0 and its last line of output is {"status", "nextStep"} as
 * expected after `stepsDone` steps; otherwise what it did instead. The output is judged as the
 * session printed it, never as a story shows it.
 */
export function checkSession(task: GradedTask, o: Session, stepsDone: number): string | null {
  const status = stepsDone >= task.steps ? "done" : "paused";
  const expected = `{"status":"${status}","nextStep":${stepsDone + 1}}`;
  if (o.timedOut) {
    toldOutcome("`session` did not finish within its time limit", { judged: true });
    const printed = statusLine(o);
    const after = printed ? `printed ${clip(printed)} but then` : "";
    return `\`${o.command}\` ${after} ${notFinished(o)}`.replace("  ", " ");
  }
  // What a session printed explains only a death: one that exited 0 may say anything.
  if (o.signal || o.exitCode !== 0) {
    const death = deathCause((o.signal ?? null) as NodeJS.Signals | null, o.stderr, o.limits);
    if (death) return toldOutcome(`\`session\` ${death}`, { judged: true }), `\`${o.command}\` ${death}`;
    const said = lastErrorLine(o.show(o.stderr));
    toldError({ name: `exit code ${o.exitCode}`, message: said });
    toldOutcome(`\`session\` exited with code ${o.exitCode}${said ? `: ${said.replace(/\d+/g, "#")}` : ""}`, { judged: true });
    return `\`${o.command}\` exited with code ${o.exitCode}${said ? `: ${clip(said)}` : ""}`;
  }
  const line = lastLine(o.stdout);
  let parsed: { status?: unknown; nextStep?: unknown } | null = null;
  try {
    parsed = JSON.parse(line);
  } catch {}
  if (!parsed || typeof parsed !== "object") {
    toldOutcome(lineCut(o) ? "`session` printed a last line longer than the output the grader keeps" : statusLine(o) ? "`session` printed a last line that is not JSON" : "`session` printed nothing", { judged: true });
    if (lineCut(o)) return `\`${o.command}\` printed a last line longer than the ${o.limits.outputKiB} KiB of output the grader keeps, so it could not be read whole; expected a last line of JSON like ${expected}`;
    const shown = statusLine(o);
    return `\`${o.command}\` ${shown ? `printed ${JSON.stringify(clip(shown))} as its last line` : "printed nothing"}; expected a last line of JSON like ${expected}`;
  }
  if (parsed.status !== status || parsed.nextStep !== stepsDone + 1) {
    // What it ran, from its side effects, so that the count of steps expected is not read as a count of steps it ran.
    const ran = o.effects.filter((e) => e.phase === "done").map((e) => e.step);
    toldOutcome(`\`session\` printed the wrong ${parsed.status !== status ? "status" : "nextStep"}`, { judged: true });
    return `\`${o.command}\` ran ${stepsWords(ran)} and printed ${clip(statusLine(o))}; expected ${expected}, with ${stepsDone === task.steps ? `all ${task.steps}` : `${stepsDone} of the task's ${task.steps}`} steps done`;
  }
  return null;
}

/** The steps a session ran, in order: "no step", "step 3", "steps 1 to 4", "steps 1, 2, 2 and 3". */
export function stepsWords(steps: number[]): string {
  if (steps.length === 0) return "no step";
  if (steps.length === 1) return `step ${steps[0]}`;
  if (steps.every((s, i) => s === steps[0]! + i)) return `steps ${steps[0]} to ${steps.at(-1)}`;
  return `steps ${steps.slice(0, -1).join(", ")} and ${steps.at(-1)}`;
}

/** The last line a process printed, trimmed ("" when none): a session's status line. */
function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1)?.trim() ?? "";
}

/** A session's status line as a story shows it ("" when it printed nothing). */
export function statusLine(o: Session): string {
  return o.show(lastLine(o.stdout));
}

/** Whether the start of the session's last line is lost: the output kept is its tail, and holds no line break before that line. */
function lineCut(o: Session): boolean {
  return o.stdoutBytes > o.limits.outputKiB * 1024 && !o.stdout.trimEnd().includes("\n");
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
export function lastErrorLine(text: string): string {
  return text.split("\n").map((l) => l.trim()).filter((l) => l && !/^Node\.js v\d/.test(l)).at(-1) ?? "";
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
