// Records one call of a one-file target in a sandbox host, for the engine's own tests.
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { Trace } from "../../crash/trace.js";
import { buildHost } from "../../sandbox/build-host.js";
import { Sandbox } from "../../sandbox/client.js";
import { DEFAULT_LIMITS } from "../../sandbox/limits.js";
import type { CallResult, DiskEntry } from "../../sandbox/protocol.js";
import { bundleTarget } from "../../target/bundle.js";

export interface Recording {
  /** "kind:api" of every operation, in order ("open:writeFileSync"). */
  kinds: string[];
  /** What the real run left in the scenario's work folder, and what replaying the whole trace rebuilt. */
  disk: DiskEntry[];
  replayedDisk: DiskEntry[];
  trace: Trace;
  result: CallResult;
}

/** Builds the sandbox host once into `work`; returns a recorder of `run(dir)` for a target's source. */
export async function recorderIn(work: string): Promise<(source: string, options?: { mustReturn?: boolean }) => Promise<Recording>> {
  const hostFile = await buildHost(work);
  return async (source, { mustReturn = true } = {}) => {
    const targetDir = fs.mkdtempSync(path.join(work, "target-"));
    fs.writeFileSync(path.join(targetDir, "t.ts"), source);
    const bundle = await bundleTarget({ targetDir, file: "t.ts", outFile: path.join(targetDir, "t.cjs") });
    if (!bundle.ok) throw new Error(bundle.problem);
    const box = new Sandbox({ hostFile, config: { modules: { t: bundle.file }, targetDir, work: path.join(targetDir, "w"), callMs: 5_000, seed: 1 }, limits: DEFAULT_LIMITS });
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
