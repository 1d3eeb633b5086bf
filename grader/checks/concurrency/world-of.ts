// The writers and reader the concurrency checks use: real processes over the target's
// checkpoint.ts, started once and shared by the deliverable's checks, one check at a time; and
// a run that went wrong, as a finding (report/run-story.ts tells it).
import path from "node:path";
import type { Execution } from "../../concurrency/explore.js";
import { World, type Setup } from "../../concurrency/world.js";
import type { CheckContext } from "../../grading/context.js";
import type { ConcurrentWriters, Finding } from "../../contract/finding.js";
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

/** A run that went wrong as a finding: the setup as shown, which run it was, the steps up to the failure, what the reader changed, and the processes' ids and clock. */
export function runFinding(setup: Setup, exec: Execution, tried: ConcurrentWriters["tried"], { pids, clockMs }: { pids: number[]; clockMs: number }): Finding {
  const wrong = exec.problem!;
  return {
    setting: {
      kind: "concurrent-writers",
      states: setup.states.map((s) => showState(s, 60)),
      old: setup.old ? showState(setup.old.state, 60) : null,
      tried,
      steps: exec.steps.slice(0, wrong.afterStep).map(({ writer, what, failed }) => ({ writer, what, failed })),
      readerChanged: exec.readerChanged ?? [],
      pids,
      clockMs,
    },
    wrong,
  };
}
