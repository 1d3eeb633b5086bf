// The writers and reader the concurrency checks use: real processes over the target's
// checkpoint.ts, started once and shared by the deliverable's checks, one check at a time; and
// the story of a run that went wrong.
import path from "node:path";
import type { Execution } from "../../concurrency/explore.js";
import { World, writerName, type Setup } from "../../concurrency/world.js";
import type { CheckContext } from "../../grading/context.js";
import type { Cause } from "../../contract/verdict.js";
import { normaliseName } from "../../crash/names.js";
import { showState } from "../../grading/states.js";
import { Actor } from "../../sandbox/supervisor/actor-client.js";
import { UserLease } from "../../sandbox/identity/target-user.js";

/** The most writers a check uses; the reader is the process after them. */
const MAX_WRITERS = 3;

let pool: Promise<{ bundle: string; actors: Actor[] }> | null = null;
/** The user the pool's processes run as (given back with them). */
let poolLease: UserLease | null = null;
let pools = 0;
let queue: Promise<void> = Promise.resolve();
/** The check using the processes now: told when one of them meets a limit. */
let holder: CheckContext | null = null;

/** Runs `use` over `writers` writers and a reader, once the deliverable's other check is done with them. */
export async function withWorld<T>(ctx: CheckContext, writers: number, use: (world: World) => Promise<T>): Promise<T> {
  let release!: () => void;
  const turn = queue;
  queue = new Promise<void>((resolve) => (release = resolve));
  await turn;
  holder = ctx;
  let done = false;
  // A check abandoned at its deadline while it still runs: its processes are ended (and started again for the next).
  ctx.own({ close: async () => (done ? undefined : closeWorlds()) });
  let uncount: (() => void)[] = [];
  try {
    const actors = await actorsFor(ctx);
    // Their processor time counts on the check's clock; their waiting never does: they wait for their turn, which the grader gives.
    uncount = actors.map((a) => ctx.count({ pid: () => a.pid, waitedOn: () => false }));
    const work = path.join(ctx.config.work, `${ctx.checkId}-${process.pid}-${Date.now()}`);
    return await use(new World(actors.slice(0, writers), actors[MAX_WRITERS]!, work, ctx.limits, ctx.seed, poolLease ?? undefined));
  } finally {
    for (const stop of uncount) stop();
    done = true;
    holder = null;
    release();
  }
}

/** The shared processes for this check's bundle, started again when one of them has ended. */
async function actorsFor(ctx: CheckContext): Promise<Actor[]> {
  const bundle = ctx.bundles.checkpoint!;
  const current = await pool?.catch(() => null);
  if (current && current.bundle === bundle && current.actors.every((a) => !a.gone)) return current.actors;
  await closeWorlds();
  // The writers and the reader are one user: they share the checkpoint's folder, as processes of one user do.
  const lease = (poolLease = UserLease.of(ctx.config.identity));
  const place = { lease, folder: lease.folder(path.join(ctx.config.work, `actors-${process.pid}-${++pools}`)) };
  const config = { bundle: lease.bundle(bundle, path.join(place.folder, "bundles")), entry: "checkpoint.ts", targetDir: ctx.config.targetDir };
  const start = () => Actor.start(ctx.config.hostFile, config, ctx.limits, () => holder && (holder.limitHit = true), place);
  pool = Promise.all(Array.from({ length: MAX_WRITERS + 1 }, start)).then((actors) => ({ bundle, actors }));
  return (await pool).actors;
}

/** Ends the shared processes: after the deliverable's checks, or when a check using them is abandoned. */
export async function closeWorlds(): Promise<void> {
  const current = await pool?.catch(() => null);
  pool = null;
  await Promise.all((current?.actors ?? []).map((a) => a.close()));
  poolLease?.release();
  poolLease = null;
}

/** A name the sandbox tracks ("@/work/checkpoint.json.tmp") as the story names files ("checkpoint.json.tmp"). */
export function shownName(name: string): string {
  return name.replace(/^@\/(work\/)?/, "");
}

/** The most steps a story lists: the first few and the last ones before the failure. */
const SHOWN_STEPS = 24;

/** The numbered steps of a story: all of them, or the first 4 and the last 20 with a line that counts those between (never one alone). */
export function elideSteps(lines: string[]): string[] {
  return elided(lines, (hidden) => `  … ${hidden} more …`);
}

/** The steps a story shows, of any form (its lines, a picture's rows): all, or the first 4 and the last 20 with `gap(hidden)` between them. */
export function elided<T>(items: T[], gap: (hidden: number) => T): T[] {
  const hidden = items.length - SHOWN_STEPS;
  if (hidden <= 1) return items;
  return [...items.slice(0, 4), gap(hidden), ...items.slice(-(SHOWN_STEPS - 4))];
}

/** A run that went wrong, in words: who wrote what, the order of their calls, what went wrong after which. */
export function concurrencyStory(setup: Setup, exec: Execution, tried: string, pids: number[], clockMs: number): string {
  const problem = exec.problem!;
  const writers = setup.states.map((s, i) => `${writerName(i)} saves ${showState(s, 60)}`).join(", ");
  const before = setup.old ? `it held ${showState(setup.old.state, 60)} before` : "there was no checkpoint before";
  // A load that changed the disk (removing leftovers, say) is told after the step it followed.
  const changed = (exec.readerChanged ?? []).filter((c) => c.afterStep <= problem.afterStep);
  const readerDid = (afterStep: number) => changed.filter((c) => c.afterStep === afterStep).flatMap((c) => c.names).map((n) => `${n.removed ? "removed" : "changed"} ${shownName(n.name)}`);
  const readerLine = (afterStep: number) => {
    const did = readerDid(afterStep);
    return did.length ? `; then the reader's loadCheckpoint ${did.join(", ")}` : "";
  };
  const lines = exec.steps.slice(0, problem.afterStep).map((s, i) => `  ${i + 1}. ${writerName(s.writer)}: ${s.what}${s.failed ? " (it failed)" : ""}${readerLine(i + 1)}`);
  const shown = elideSteps(lines);
  const atStart = readerDid(0);
  const first = atStart.length ? `Before any of their calls, the reader's loadCheckpoint ${atStart.join(", ")}.\n` : "";
  const order = lines.length ? `\nIn ${tried}, the writers' file-system calls ran in this order:\n${first}${shown.join("\n")}\n` : `\nIn ${tried}, ${first}`;
  const writerRule = changed.length > 0
    ? "A load must not change what a writer may be using: the reader's did, while the writers ran."
    : "A writer must not fail because another process is saving the same checkpoint.";
  const what = {
    load: `${problem.afterStep ? `after step ${problem.afterStep}` : "before any of them"}, ${problem.text}. A reader must only ever see a whole state.`,
    writer: `${problem.afterStep ? `after step ${problem.afterStep}, ` : ""}${problem.text}. ${writerRule}`,
    final: `once every writer had returned, ${problem.text}. The checkpoint must then hold a state one of them saved.`,
    endless: `${problem.text}.`,
  }[problem.kind];
  const story = `${setup.states.length} writers, each a process of its own, saved checkpoint.json at the same time (${writers}; ${before}), while a reader loaded it after every file-system call they made.${order}${what}`;
  return storyWords(story, setup.states.length, pids, clockMs);
}

/**
 * The cause of a run's failure: the target's errors its story told, in the story's words (a temp
 * name's pid as whose it is), so that the cause repeats from grade to grade as the story does.
 */
export function runCause(ctx: Pick<CheckContext, "told">, run: { setup: Setup; pids: number[]; clockMs: number }): Cause {
  const words = (text: string) => storyWords(text, run.setup.states.length, run.pids, run.clockMs);
  return ctx.told.errors.length > 0 ? { errors: ctx.told.errors.map((e) => ({ ...e, message: words(e.message) })) } : {};
}

/** Words of a run (a story, or a picture's labels) as they repeat from grade to grade: no process id, time or random part of a temp name. */
export function storyWords(text: string, writers: number, pids: number[], clockMs: number): string {
  // Process ids and the clock differ from grade to grade: each pid shows as whose it is, and a
  // time in milliseconds near the writers' clock as <time>.
  const named = pids.reduce((out, pid, i) => out.replace(new RegExp(`\\b${pid}\\b`, "g"), i < writers ? `<pid\u00a0of\u00a0${writerName(i)}>` : "<pid\u00a0of\u00a0the\u00a0reader>"), text);
  const timed = named.replace(/\b\d{13}\b/g, (ms) => (Math.abs(Number(ms) - clockMs) < 3_600_000 ? "<time>" : ms));
  // Random parts of temp names (crypto's, which differ from grade to grade) show as "*".
  return timed.replace(/checkpoint\.json[^ \n'",;:)]*/g, (name) => normaliseName(name));
}
