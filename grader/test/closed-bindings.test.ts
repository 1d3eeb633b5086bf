// process.binding and process._linkedBinding are closed in every process that runs the target's
// code (sandbox/runtime/target/closed-doors.ts): Node's own file calls below `fs` would change the
// disk where the recording cannot see, so no crash could fall inside them. Reached through the
// `process` the target is given and through the real one (`globalThis.process`), in a sandbox
// host and in a real process, each throws ERR_LAB_UNSUPPORTED.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { DEFAULT_LIMITS } from "../sandbox/messages/limits.js";
import type { CallResult } from "../sandbox/messages/scenario.js";
import { makeScenarioFolder, runProcess } from "../sandbox/supervisor/process-client.js";
import { bundleTarget } from "../target/bundle.js";
import { sandboxOver, scratchHost } from "./support/host.js";

const host = scratchHost();

// Each way to a binding, tried in turn: what it threw (its code), or "reached".
const SOURCE = `
const reach = (f: () => unknown) => { try { f(); return "reached"; } catch (e) { return (e as { code?: string }).code ?? String(e); } };
export function run(): string[] {
  const own = process as unknown as { binding(n: string): unknown; _linkedBinding(n: string): unknown };
  const real = (globalThis as unknown as { process: typeof own }).process;
  return [reach(() => own.binding("fs")), reach(() => real.binding("fs")), reach(() => real._linkedBinding("fs")), reach(() => { putBack(real); return real.binding("fs"); })];
}
function putBack(real: object): void {
  try { (real as { binding: unknown }).binding = () => 1; } catch {}
  try { Object.defineProperty(real, "binding", { value: () => 1 }); } catch {}
}
`;
const CLOSED = ["ERR_LAB_UNSUPPORTED", "ERR_LAB_UNSUPPORTED", "ERR_LAB_UNSUPPORTED", "ERR_LAB_UNSUPPORTED"];

/** The value a call returned, or the error it threw, as a test compares it. */
function returned(result: CallResult | undefined): unknown {
  return result?.status === "returned" ? result.value.value : result;
}

describe("process.binding is closed to the target", () => {
  test("in a sandbox host, through its own process and the real one, process.binding and _linkedBinding throw ERR_LAB_UNSUPPORTED, and cannot be put back", async () => {
    const box = await sandboxOver(host, { module: "t", source: SOURCE });
    try {
      const { results } = await box.run("t", { steps: [{ call: "run", args: [], want: "value" }] });
      expect(returned(results[0])).toEqual(CLOSED);
    } finally {
      await box.close();
    }
  });

  test("in a real process of the target's, the same", async () => {
    const targetDir = path.join(host.work, "real");
    fs.mkdirSync(targetDir);
    fs.writeFileSync(path.join(targetDir, "t.ts"), SOURCE);
    const bundle = await bundleTarget({ targetDir, file: "t.ts", outFile: path.join(targetDir, "t.cjs") });
    if (!bundle.ok) throw new Error(bundle.problem);
    const outcome = await runProcess(host.hostFile, { bundle: bundle.file, entry: "t.ts", targetDir, root: makeScenarioFolder(path.join(host.work, "real-scenario")), steps: [{ call: "run", args: [], want: "value" }], limits: DEFAULT_LIMITS });
    expect(returned(outcome.results?.[0])).toEqual(CLOSED);
  });
});
