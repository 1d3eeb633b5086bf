// The writers and reader a concurrency check uses: real processes over the target's checkpoint.ts,
// closed when the check ends; and the story of a run that went wrong.
import path from "node:path";
import { World, writerName, type Execution, type Setup } from "../../concurrency/world.js";
import type { CheckContext } from "../../grading/context.js";
import { showState } from "../../grading/states.js";
import { Actor } from "../../sandbox/actor-client.js";

/** Starts `writers` writer processes and a reader over the target's checkpoint.ts. */
export async function openWorld(ctx: CheckContext, writers: number): Promise<World> {
  const config = { bundle: ctx.bundles.checkpoint!, entry: "checkpoint.ts", targetDir: ctx.config.targetDir };
  const start = () => Actor.start(ctx.config.hostFile, config, ctx.limits, () => (ctx.limitHit = true)).then((a) => ctx.own(a));
  const actors = await Promise.all(Array.from({ length: writers + 1 }, start));
  return new World(actors.slice(0, writers), actors[writers]!, path.join(ctx.config.work, `${ctx.checkId}-${process.pid}-${Date.now()}`), ctx.limits);
}

/** The most steps a story lists: the first few and the last ones before the failure. */
const SHOWN_STEPS = 24;

/** A run that went wrong, in words: who wrote what, the order of their calls, what went wrong after which. */
export function concurrencyStory(setup: Setup, exec: Execution, tried: string, pids: number[], clockMs: number): string {
  const problem = exec.problem!;
  const writers = setup.states.map((s, i) => `${writerName(i)} saves ${showState(s, 60)}`).join(", ");
  const before = setup.old ? `it held ${showState(setup.old.state, 60)} before` : "there was no checkpoint before";
  const lines = exec.steps.slice(0, problem.afterStep).map((s, i) => `  ${i + 1}. ${writerName(s.writer)}: ${s.what}${s.failed ? " (it failed)" : ""}`);
  const shown = lines.length <= SHOWN_STEPS ? lines : [...lines.slice(0, 4), `  … ${lines.length - SHOWN_STEPS + 4} more …`, ...lines.slice(-(SHOWN_STEPS - 4))];
  const order = lines.length ? `\nIn ${tried}, the writers' file-system calls ran in this order:\n${shown.join("\n")}\n` : `\nIn ${tried}, `;
  const what = {
    load: `${problem.afterStep ? `after step ${problem.afterStep}` : "before any of them"}, ${problem.text}. A reader must only ever see a whole state.`,
    writer: `${problem.afterStep ? `after step ${problem.afterStep}, ` : ""}${problem.text}. A writer must not fail because another process is saving the same checkpoint.`,
    final: `once every writer had returned, ${problem.text}. The last state saved must be the one that stays.`,
    endless: `${problem.text}.`,
  }[problem.kind];
  const story = `${setup.states.length} writers, each a process of its own, saved checkpoint.json at the same time (${writers}; ${before}), while a reader loaded it after every step.${order}${what}`;
  // Process ids and the clock differ from grade to grade: each pid shows as whose it is, and a
  // time in milliseconds near the writers' clock as <time>.
  const named = pids.reduce((text, pid, i) => text.replace(new RegExp(`\\b${pid}\\b`, "g"), i < setup.states.length ? `<pid of ${writerName(i)}>` : "<pid of the reader>"), story);
  return named.replace(/\b\d{13}\b/g, (ms) => (Math.abs(Number(ms) - clockMs) < 3_600_000 ? "<time>" : ms));
}
