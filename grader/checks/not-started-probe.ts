// Do no work for what is not started: a file whose functions all still throw the starter's "not
// implemented yet" is known from one call of each, not from a grade of every check built on it.
//
// Before the checks start, each file whose source still holds the starter's error for every
// function the starter leaves to write in it is compiled on its own and each of those functions
// called once, as the checks call it, in a fresh sandbox host (session.ts is run once as the
// program it is). When every call threw the starter's error for that very function, every check
// of every deliverable of the file fails with that cause without being run; the report then
// blocks the checks that wait on them as usual, and finds the deliverable not started from the
// cause, as it would from the checks' own failures. Anything else (a call that returned, threw
// another error, or threw the starter's error of another function: a runner.ts written over a
// checkpoint.ts that is not) and the file is graded in full. A right answer cannot lose a point
// here: no check of a file can pass while every function of it throws before doing anything.
// Each such failure says it was not run, and its replay command (`--only <check>`) runs it.
import { CheckContext } from "../grading/context.js";
import { load, targetError, write } from "../grading/calls.js";
import { checkCommand, isSelected, type GradeConfig } from "../grading/config.js";
import { prepareTarget } from "../grading/prepare.js";
import type { CheckMeta, TargetError } from "../contract/verdict.js";
import { notImplementedIn, starterFunctions } from "../report/not-started.js";
import type { RubricDeliverable } from "../rubric.js";
import type { CallResult, ScenarioStep } from "../sandbox/messages/scenario.js";
import { runTaskStep } from "./phase2/task-run.js";
import { GIT_SETUP } from "./stretch-git/git-setup.js";
import { lastErrorLine, SessionFolder } from "./phase3/sessions.js";
import { steadyNow } from "../steady-clock.js";

/** The one call of each function, per module, as the checks make it; a module not here is always graded. */
const FIRST_CALLS: Record<string, ScenarioStep[]> = {
  checkpoint: [load(), write({})],
  runner: [runTaskStep()],
  [GIT_SETUP.module]: [runTaskStep(undefined, GIT_SETUP.checkpoint)],
  diff: [
    { mkdir: "work/history" },
    { call: "recordHistory", args: [{ $task: {} }, { $path: "work/history" }] },
    { call: "loadHistory", args: [{ $path: "work/history" }] },
    { call: "firstDivergence", args: [[], []] },
  ],
};

/** session.ts, the one program: run once with the smallest budget a check gives it. */
const PROGRAM = { module: "session", maxSteps: 1 };

/** What one call (or the one run of the program) showed: the starter's error for that function, or nothing to go on. */
interface FirstCall {
  /** The function ("atomicCheckpoint"; "session" for the program). */
  name: string;
  /** For the program: how it was run ("`session --checkpoint task-checkpoint.json --max-steps 1`"). */
  ran?: string;
  error: TargetError;
}

/**
 * The verdicts of every check of `deliverables` whose file is not started: each failed, unrun,
 * with the errors the starter's functions threw as its cause. Only deliverables with every check
 * selected are looked at (a grade of one check runs that check).
 */
export async function notStartedVerdicts(config: GradeConfig, deliverables: RubricDeliverable[]): Promise<CheckMeta[]> {
  if (config.replayPath) return [];
  const whole = deliverables.filter((d) => d.checks.every((c) => isSelected(config, c.id)));
  const files = [...new Set(whole.map((d) => d.file))];
  const found = await Promise.all(files.map((file) => firstCalls(config, file)));
  const metas: CheckMeta[] = [];
  for (const [i, file] of files.entries()) {
    const first = found[i];
    if (!first) continue;
    // One story for every check of the file: only the replay command is each check's own.
    const unrun = { status: "failed" as const, ...notRunStory(file, first.calls), crashStates: 0, durationMs: 0, span: first.span };
    for (const d of whole.filter((w) => w.file === file)) metas.push(...d.checks.map((c) => ({ id: c.id, deliverable: d.id, ...unrun, replay: checkCommand(config, c.id) })));
  }
  return metas;
}

/** The first call of each function of `file` when every one threw the starter's error for itself; null otherwise. */
async function firstCalls(config: GradeConfig, file: string): Promise<{ calls: FirstCall[]; span: [number, number] } | null> {
  const module = file.replace(/\.ts$/, "");
  const own = starterFunctions(file);
  const steps = FIRST_CALLS[module];
  // Only a file that still holds the starter's error for every one of them is called at all: a
  // file being written is never run here, only graded.
  const left = starterFunctions(file, config.targetDir);
  if (own.length === 0 || !own.every((f) => left.includes(f))) return null;
  if (module !== PROGRAM.module && !own.every((f) => steps?.some((s) => "call" in s && `${s.call} (${file})` === f))) return null;
  const began = steadyNow();
  const prepared = await prepareTarget(config, { main: module });
  const variant = prepared.variants[0];
  if (!variant || variant.label !== "") return null;
  const ctx = new CheckContext(config, `not-started-${module}`, variant);
  try {
    const calls = module === PROGRAM.module ? await runProgram(ctx) : await callEach(ctx, module, steps!);
    // Each function's own call threw the starter's error for that very function (in the starter's order).
    const inOrder = own.map((f) => calls?.find((c) => `${c.name} (${file})` === f && notImplementedIn(c.error.message).join() === f));
    return inOrder.every((c) => c !== undefined) ? { calls: inOrder, span: [began, steadyNow()] } : null;
  } catch {
    // A host that died or hung over it: nothing to go on, and the checks tell what it does.
    return null;
  } finally {
    await ctx.close();
  }
}

/** What each call threw, or null when one did anything but throw. */
async function callEach(ctx: CheckContext, module: string, steps: ScenarioStep[]): Promise<FirstCall[] | null> {
  const { results } = await ctx.sandbox().run(module, { steps });
  const named = steps.flatMap((s) => ("call" in s ? [s.call] : []));
  const calls: FirstCall[] = [];
  for (const [i, call] of named.entries()) {
    const r: CallResult | undefined = results[i];
    if (r?.status !== "threw") return null;
    calls.push({ name: call, error: targetError(r.error) });
  }
  return calls;
}

/** The error the program's one run printed as it exited with an error (as a check tells it); null when it did anything else. */
async function runProgram(ctx: CheckContext): Promise<FirstCall[] | null> {
  const session = await new SessionFolder(ctx).run(PROGRAM.maxSteps);
  if (session.timedOut || session.signal || session.exitCode === 0 || session.exitCode === null) return null;
  const said = lastErrorLine(session.show(session.stderr));
  return [{ name: PROGRAM.module, ran: `\`${session.command}\``, error: { name: `exit code ${session.exitCode}`, message: said } }];
}

/** What a check of a file not started says, failed without being run, and its cause: the errors the first calls showed. */
function notRunStory(file: string, calls: FirstCall[]): Pick<CheckMeta, "message" | "cause"> {
  const names = calls.map((c) => c.name);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  const are = names.length === 1 ? "is" : "are";
  const [first] = calls;
  const showed = first!.ran
    ? `run once as ${first!.ran}, it exited with ${first!.error.name.replace(/^exit /, "")}: ${first!.error.message}`
    : calls.length === 1
      ? `called once, ${list} threw the starter's "${first!.error.message}"`
      : `called once each, ${list} each threw the starter's "not implemented yet"`;
  return {
    message: `Not run: ${file} is not started: ${showed}. This check runs once ${list} ${are} written.`,
    cause: { errors: calls.map((c) => c.error), outcome: `${list} ${are} not implemented yet` },
  };
}
