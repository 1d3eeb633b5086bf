// A shell line of several programs runs with a probe between them, so that its effect is told
// program by program. Two listings of the folder, before the line and after it, cannot tell in
// which order its programs changed a path, nor what a path held between them: `rm a && ln -s b a`,
// `mv a c && ln -s c a`, `rm a && mkdir a` and two `sed -i` each change one path twice.
//
// A probe goes before each program (or pipeline) that may change the folder when another one may
// have changed it since the last probe, at the `&&`, `||`, `;` or new line before it: `a && b` runs as
// `a ;P 1 && b`, where the shell function P lists the folder (probe.ts) and hands back a's
// status, so the line takes the branches and ends with the status it has as written. No probe
// goes inside a pipeline (its programs run at once), into a line that runs a program in the
// background (it may run on past any probe), or into a line that runs `set` or a shell started
// with -e (under `set -e`, `a` alone would end the line where `a && b` goes on): those programs
// share one step.
import path from "node:path";
import { shellLine, type Invocation, type ShellLine, type SimpleCommand } from "../../../crash/command-line.js";
import { PROBE_FUNCTION, ProbeFolder } from "./probe.js";
import type { Snapshot } from "./snapshot.js";

/** Where a probe goes: before the operator at `at` in the script; `next` is the first command after it. */
export interface ProbePoint {
  at: number;
  next: number;
}

/** A line to run with probes, and what its probes saw once it ran. */
export interface ProbedLine {
  /** The invocation to run in place of the target's. */
  run: Invocation;
  /** For probe k (1-based, at index k - 1), the first command after it. */
  next: number[];
  probes: ProbeFolder;
  /** The error or result of the run, told with the target's command line in place of the one that ran. */
  restore<T>(value: T): T;
}

/** A probe costs a Node process: a line of more programs is told in fewer steps. */
const MOST_PROBES = 16;

/** Programs that change nothing in the folder, unless their output is redirected into it. */
const LEAVE_FOLDER_ALONE = new Set(["sync", "true", "false", "echo", "printf", "test", "cat", "ls", "sleep", "pwd", "stat", "grep", "head", "tail", "wc", "cmp", "diff", "sha1sum", "sha256sum", "md5sum", "readlink", "realpath", "basename", "dirname", "date"]);

/** The line read and where its probes go; null when it needs none or cannot have any. */
export function probePlan(invocation: Invocation): { line: ShellLine; points: ProbePoint[] } | null {
  if (stopsOnError(invocation)) return null;
  const line = shellLine(invocation);
  const points = line ? probePoints(line) : [];
  return line && points.length > 0 ? { line, points } : null;
}

/** Sets up the probes of `plan` over the scenario folder `root` as `before` lists it; null when its probe folder cannot be made. */
export function probedLine(invocation: Invocation, plan: { line: ShellLine; points: ProbePoint[] }, root: string, before: Snapshot): ProbedLine | null {
  const probes = ProbeFolder.open(root, before);
  if (!probes) return null;
  const script = withProbes(plan.line.script, plan.points, probes.shellFunction());
  const dashC = "script" in invocation ? -1 : invocation.args.indexOf("-c");
  const run = "script" in invocation ? { ...invocation, script } : { ...invocation, args: invocation.args.map((a, i) => (i === dashC + 1 ? script : a)) };
  return { run, next: plan.points.map((p) => p.next), probes, restore: (value) => restoreText(value, script, plan.line.script) };
}

/** Where the probes of a line go: before each pipeline that may change the folder after another that may have. */
function probePoints(line: ShellLine): ProbePoint[] {
  if (line.operators.some((o) => o.op === "&") || line.commands.some((c) => c.program === "set")) return [];
  const points: ProbePoint[] = [];
  let changed = false; // whether a program since the last probe may have changed the folder
  for (const { first, commands } of pipelines(line)) {
    if (!commands.some(mayChange)) continue;
    const between = line.operators.find((o) => o.after === first);
    if (changed && between && points.length < MOST_PROBES) points.push({ at: between.at, next: first });
    changed = true;
  }
  return points;
}

/** The line's pipelines (a lone program is one too): their programs run at once, so no probe goes between them. */
function pipelines(line: ShellLine): { first: number; commands: SimpleCommand[] }[] {
  const out: { first: number; commands: SimpleCommand[] }[] = [];
  line.commands.forEach((cmd, j) => {
    const piped = j > 0 && line.operators.some((o) => o.after === j && o.op === "|");
    if (piped) out.at(-1)!.commands.push(cmd);
    else out.push({ first: j, commands: [cmd] });
  });
  return out;
}

/** Whether a shell is started to stop at the first failure (`sh -e -c ...`, `-o errexit`), as `set -e` does. */
function stopsOnError(invocation: Invocation): boolean {
  if ("script" in invocation) return false;
  const options = invocation.args.slice(0, invocation.args.indexOf("-c"));
  return options.some((a) => /^-[a-zA-Z]*e/.test(a) || a === "errexit");
}

function mayChange(cmd: SimpleCommand): boolean {
  return !LEAVE_FOLDER_ALONE.has(cmd.program) || cmd.outputs.some((o) => !path.resolve(cmd.cwd, o).startsWith("/dev/"));
}

/** The script with the probe function defined at its head and called at each point. */
function withProbes(script: string, points: ProbePoint[], definition: string): string {
  let out = script;
  for (let k = points.length; k >= 1; k--) {
    const at = points[k - 1]!.at;
    out = `${out.slice(0, at)} ;${PROBE_FUNCTION} ${k} ${out.slice(at)}`;
  }
  return definition + out;
}

/**
 * Puts the target's line back where Node names the one that ran: in an error's message and stack
 * ("Command failed: ..."), its spawnargs, and the error a spawnSync result carries.
 */
function restoreText<T>(value: T, ran: string, written: string): T {
  const error = value instanceof Error ? value : (value as { error?: unknown } | null)?.error;
  if (!(error instanceof Error)) return value;
  const put = (text: string) => text.split(ran).join(written);
  error.message = put(error.message);
  if (error.stack) error.stack = put(error.stack);
  const spawnargs = (error as { spawnargs?: unknown }).spawnargs;
  if (Array.isArray(spawnargs)) (error as { spawnargs?: unknown }).spawnargs = spawnargs.map((a) => (typeof a === "string" ? put(a) : a));
  return value;
}
