// Turns a deliverable's checks into vitest tests: one test per check, its verdict in `meta`.
import { beforeAll, describe, inject, test } from "vitest";
import { SandboxFailure } from "../sandbox/client.js";
import { isSelected } from "./config.js";
import { CheckContext } from "./context.js";
import { prepareTarget, type PreparedTarget } from "./prepare.js";
import type { Verdict } from "./verdict.js";

export interface CheckDefinition {
  id: string;
  run(ctx: CheckContext): Promise<Verdict>;
}

/** A failed check, so vitest's own view of the run agrees with the report. */
class CheckFailed extends Error {}

/** Registers the checks of one deliverable; `files` are the target files it compiles. */
export function gradeDeliverable(deliverable: string, files: Record<string, string>, checks: CheckDefinition[]): void {
  const config = inject("grade");
  describe.concurrent(deliverable, () => {
    let target: PreparedTarget;
    beforeAll(async () => {
      target = await prepareTarget(config, files);
    });
    for (const check of checks) {
      test.skipIf(!isSelected(config, check.id))(check.id, async ({ task }) => {
        const ctx = new CheckContext(config, check.id, target);
        let verdict: Verdict;
        try {
          verdict = target.problem ? ctx.failed(target.problem) : await check.run(ctx);
        } catch (error) {
          verdict = error instanceof SandboxFailure
            ? ctx.failed(`the target's process ${error.message}`)
            : { status: "error", message: `the grader could not run this check: ${(error as Error)?.stack ?? error}` };
        } finally {
          await ctx.close();
        }
        task.meta.check = { id: check.id, deliverable, crashStates: ctx.crashStates, ...verdict };
        if (verdict.status !== "passed") throw new CheckFailed(verdict.message);
      });
    }
  });
}
