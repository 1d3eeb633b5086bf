// A scratch folder and a sandbox host built into it, shared by the tests of one file, and
// sandboxes over one-file targets written into it.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll } from "vitest";
import { buildHost } from "../../sandbox/supervisor/build-host.js";
import { Sandbox } from "../../sandbox/supervisor/host-client.js";
import { DEFAULT_LIMITS, type Limits } from "../../sandbox/messages/limits.js";
import { bundleTarget } from "../../target/bundle.js";

/** The scratch folder and host of the calling test file: made before its tests, removed after. */
export function scratchHost(): { readonly work: string; readonly hostFile: string } {
  const state = { work: "", hostFile: "" };
  let cleanup = async () => {};
  beforeAll(async () => {
    const scratch = await dir({ unsafeCleanup: true });
    cleanup = scratch.cleanup;
    state.work = scratch.path;
    state.hostFile = await buildHost(scratch.path);
  });
  afterAll(() => cleanup());
  return state;
}

/** A sandbox whose module `module` is `source`, written as `<module>.ts` into a folder `name` (a new one when not given) of the scratch folder, under `limits` (the defaults when not given). */
export async function sandboxOver(host: { work: string; hostFile: string }, options: { name?: string; module: string; source: string; limits?: Limits }): Promise<Sandbox> {
  const targetDir = options.name ? path.join(host.work, options.name) : fs.mkdtempSync(path.join(host.work, "target-"));
  if (options.name) fs.mkdirSync(targetDir);
  fs.writeFileSync(path.join(targetDir, `${options.module}.ts`), options.source);
  const bundle = await bundleTarget({ targetDir, file: `${options.module}.ts`, outFile: path.join(targetDir, `${options.module}.cjs`) });
  if (!bundle.ok) throw new Error(bundle.problem);
  const limits = options.limits ?? DEFAULT_LIMITS;
  const config = { modules: { [options.module]: bundle.file }, targetDir, work: path.join(targetDir, "w"), callMs: limits.callMs, seed: 1 };
  return new Sandbox({ hostFile: host.hostFile, config, limits });
}
