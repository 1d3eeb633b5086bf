// Runs a fast-check property whose test returns a failure (or null): a Finding, or a story still
// told as text. Hands back the shrunk counterexample with its failure and the fast-check path that
// replays it.
import fc from "fast-check";
import { SandboxFailure } from "../sandbox/supervisor/host-client.js";
import type { CheckContext } from "./context.js";
import { toldOutcome } from "./told.js";
import type { Failure, Finding, SandboxWrong } from "../contract/finding.js";
import { wrongWords } from "../report/finding-story.js";

export interface Counterexample<T> {
  value: T;
  story: Failure;
  /** fast-check's path to this counterexample (after `part/` for a check's later property): `--replay <path>` runs it alone. */
  path: string;
  runs: number;
}

/**
 * Checks `test` on `numRuns` values of `arb` (plus `examples`); null when every one passes. A check
 * that runs a second property after its first names it with `part`: its paths are `part/<path>`,
 * and a replay runs only the property its path names.
 */
export async function findCounterexample<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  test: (value: T) => Promise<Failure | null>,
  options: { numRuns: number; examples?: T[]; part?: string },
): Promise<Counterexample<T> | null> {
  const tell = async (value: T): Promise<Failure | null> => {
    try {
      ctx.beginCase();
      return await test(value);
    } catch (error) {
      if (error instanceof SandboxFailure) return sandboxFinding(error);
      throw new GraderBug(error);
    }
  };
  // Once the target meets a limit (a hang, a death), that case is the counterexample: no other
  // case runs and nothing shrinks, so a hang costs its time limit once, not once per case.
  let stopped: { value: T; story: Failure } | null = null;
  const property = fc.asyncProperty(arb, async (value) => {
    if (stopped) return true;
    const story = await tell(value);
    if (story !== null && ctx.limitHit) stopped = { value, story };
    return story === null;
  });
  const replayPath = ctx.config.replayCheck === ctx.checkId ? ctx.config.replayPath : undefined;
  // "paused/3" is path 3 of the property named "paused"; "3", of the one with no name.
  const slash = replayPath?.indexOf("/") ?? -1;
  const replaying = slash === -1 ? replayPath : replayPath!.slice(slash + 1);
  if (replaying !== undefined) {
    ctx.replayed = true;
    // The replayed case is another property's of this check.
    if ((slash === -1 ? undefined : replayPath!.slice(0, slash)) !== options.part) return null;
    ctx.replayWalked = true;
  }
  const printed = (path: string) => (options.part === undefined ? path : `${options.part}/${path}`);
  let details: fc.RunDetails<[T]>;
  try {
    details = await fc.check(property, { seed: ctx.seed, numRuns: options.numRuns, examples: (options.examples ?? []).map((e) => [e] as [T]), path: replaying });
  } catch (error) {
    // fast-check cannot walk a path that its cases on this code do not have.
    if (replaying !== undefined && /Unable to replay/.test(String((error as Error)?.message))) throw new ReplayDoesNotFit(ctx.checkId, replayPath!, ctx.replayCommand());
    throw error;
  }
  if (!details.failed) return null;
  if (details.errorInstance instanceof GraderBug) throw details.errorInstance.cause;
  const stop = stopped as { value: T; story: Failure } | null;
  if (stop) return { ...stop, path: printed(details.counterexamplePath!), runs: details.numRuns };
  const [value] = details.counterexample!;
  // Run the shrunk case once more to get its story (a test may have thrown, rather than told one).
  const story = (await tell(value)) ?? "the check failed on this case once, and passed when run again";
  return { value, story, path: printed(details.counterexamplePath!), runs: details.numRuns };
}

/** A `--replay` path that leads to no case of this check on this code (mistyped, or from other code or another seed). */
export class ReplayDoesNotFit extends Error {
  constructor(readonly checkId: string, readonly path: string, command: string) {
    super(`The replay path ${path} leads to no case of ${checkId} on this code (it was mistyped, or printed for other code or another seed): run \`${command}\` to find its failures again.`);
  }
}

/** A sandbox failure as a Finding: the process running the target's code met a limit or died. */
export function sandboxFinding(error: SandboxFailure): Finding {
  return { wrong: sandboxWrong(error) };
}

function sandboxWrong(error: SandboxFailure): SandboxWrong {
  return { kind: "sandbox", said: error.message, outcome: `the process running your code ${error.outcome}` };
}

/** An exception inside a test: the grader's fault, never a verdict on the target. */
class GraderBug extends Error {
  constructor(readonly cause: unknown) {
    super(String((cause as Error)?.message ?? cause));
  }
}

/** A sandbox failure's words inside a story told as text: "The process running your code ran out of memory ..."; its outcome told (told.ts). */
export function sandboxStory(error: SandboxFailure): string {
  const wrong = sandboxWrong(error);
  toldOutcome(wrong.outcome, { judged: true });
  return wrongWords(wrong);
}
