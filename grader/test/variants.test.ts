// The variants a deliverable is tried in: the student's own files first, then with reference
// files for the earlier deliverables; a variant that runs the same code as one before it (the
// student's earlier file is the reference's, byte for byte) is not tried again.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterEach, describe, expect, test } from "vitest";
import { SOLUTION_DIR } from "../paths.js";
import { loadRubric, deliverableModules } from "../rubric.js";
import { prepareTarget } from "../grading/prepare.js";
import type { GradeConfig } from "../grading/config.js";
import { bundleTarget } from "../target/bundle.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A copy of the reference solution, with `edit` applied to its files. */
async function target(edit: (folder: string) => void = () => {}): Promise<string> {
  const folder = await dir({ unsafeCleanup: true });
  cleanups.push(folder.cleanup);
  const copy = path.join(folder.path, "target");
  fs.cpSync(SOLUTION_DIR, copy, { recursive: true });
  edit(copy);
  return copy;
}

async function config(targetDir: string): Promise<GradeConfig> {
  const work = await dir({ unsafeCleanup: true });
  cleanups.push(work.cleanup);
  return { targetDir, targetArg: targetDir, work: work.path, hostFile: "", seed: 1, only: [], rubric: loadRubric() };
}

/** Appends a statement that changes the code but nothing a check sees (an unused export would be left out of the bundle). */
const touch = (folder: string, file: string) => fs.appendFileSync(path.join(folder, file), `\nif (process.env.LAB_EDITED_${file.replace(".ts", "")}) console.log("edited");\n`);

describe("variants of a deliverable", () => {
  test("bundles of the same code from different folders have the same code digest; an edited file changes it", async () => {
    const copy = await target();
    const out = path.dirname(copy);
    const bundle = async (replace: Record<string, string>, name: string) => {
      const r = await bundleTarget({ targetDir: copy, file: "session.ts", replace, outFile: path.join(out, name) });
      if (!r.ok) throw new Error(r.problem);
      return r.code;
    };
    const own = await bundle({ runner: path.join(copy, "runner.ts"), checkpoint: path.join(copy, "checkpoint.ts") }, "a.cjs");
    const reference = await bundle({ runner: path.join(SOLUTION_DIR, "runner.ts"), checkpoint: path.join(SOLUTION_DIR, "checkpoint.ts") }, "b.cjs");
    expect(fs.readFileSync(path.join(out, "a.cjs"), "utf8")).not.toBe(fs.readFileSync(path.join(out, "b.cjs"), "utf8"));
    expect(own).toBe(reference);
    touch(copy, "checkpoint.ts");
    expect(await bundle({ runner: path.join(copy, "runner.ts"), checkpoint: path.join(copy, "checkpoint.ts") }, "c.cjs")).not.toBe(own);
  });

  test("with every earlier file the reference's, Phase 3 is tried in one variant; with runner.ts edited, in two", async () => {
    const same = await prepareTarget(await config(await target()), deliverableModules(loadRubric(), "phase3"));
    expect(same.variants.map((v) => v.label)).toEqual([""]);
    const edited = await prepareTarget(await config(await target((t) => touch(t, "runner.ts"))), deliverableModules(loadRubric(), "phase3"));
    expect(edited.variants.map((v) => v.label)).toEqual(["", "with the reference runner.ts"]);
  });

  test("with both earlier files edited, Phase 3 is tried in all four combinations, the student's own first", async () => {
    const both = await prepareTarget(await config(await target((t) => (touch(t, "runner.ts"), touch(t, "checkpoint.ts")))), deliverableModules(loadRubric(), "phase3"));
    expect(both.variants.map((v) => v.label)).toEqual(["", "with the reference checkpoint.ts", "with the reference runner.ts", "with the reference runner.ts and checkpoint.ts"]);
  });
});
