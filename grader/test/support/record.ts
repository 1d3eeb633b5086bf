// Records one call of a one-file target in a sandbox host, for the engine's own tests.
import { expect } from "vitest";
import type { DiskEntry, Trace } from "../../crash/model.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import { sandboxOver, scratchHost } from "./host.js";

export interface Recording {
  /** "kind:api" of every operation, in order ("open:writeFileSync"). */
  kinds: string[];
  /** What the real run left in the scenario's work folder, and what replaying the whole trace rebuilt. */
  disk: DiskEntry[];
  replayedDisk: DiskEntry[];
  trace: Trace;
  result: CallResult;
}

/** For the calling test file: a recorder of `run(dir)` of a target's source, over a host built before its tests. */
export function scratchRecorder(): (source: string, options?: { mustReturn?: boolean }) => Promise<Recording> {
  const host = scratchHost();
  let targets = 0;
  return async (source, { mustReturn = true } = {}) => {
    const box = await sandboxOver(host, { name: `target-${++targets}`, module: "t", source });
    try {
      const run = await box.run("t", { steps: [{ call: "run", args: [{ $path: "work" }] }] }, { record: true, listDisk: true });
      if (mustReturn) expect(run.results[0]!.status).toBe("returned");
      const trace = run.trace!;
      const replayed = await box.run("t", { from: [{ traceId: run.traceId!, cut: { at: trace.entries.length } }], steps: [] }, { listDisk: true });
      const kinds = trace.entries.flatMap((e) => (e.kind === "mark" || e.kind === "effect" ? [] : [`${e.kind}:${e.api}`]));
      return { kinds, disk: run.disk!, replayedDisk: replayed.disk!, trace, result: run.results[0]! };
    } finally {
      await box.close();
    }
  };
}
