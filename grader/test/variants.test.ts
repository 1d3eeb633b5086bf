// The variants a deliverable is tried in: the student's own files first, then with the grader's
// stand-ins for the earlier deliverables' files; a variant that runs the same code as one before
// it is not tried again. The stand-ins' primitives compile only where a stand-in stands in.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterEach, describe, expect, test } from "vitest";
import { SOLUTION_DIR } from "../paths.js";
import { loadRubric, deliverableModules } from "../rubric.js";
import { prepareTarget, withStandIn } from "../grading/prepare.js";
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

/** Bundles `file` of `targetDir` with `standIns`; the code digest, or the problem as a student reads it. */
async function bundled(targetDir: string, file: string, standIns: string[], out: string): Promise<{ code?: string; problem?: string }> {
  const r = await bundleTarget({ targetDir, file, standIns, outFile: path.join(path.dirname(targetDir), out) });
  return r.ok ? { code: r.code } : { problem: r.problem };
}

describe("variants of a deliverable", () => {
  test("bundles of the same code from different folders have the same code digest; an edited file changes it", async () => {
    const [a, b] = [await target(), await target()];
    const own = await bundled(a, "session.ts", [], "a.cjs");
    expect(own.code).toBeDefined();
    expect((await bundled(b, "session.ts", [], "b.cjs")).code).toBe(own.code);
    touch(b, "checkpoint.ts");
    expect((await bundled(b, "session.ts", [], "c.cjs")).code).not.toBe(own.code);
  });

  test("Phase 3 is tried with the student's files, then with the stand-in for checkpoint.ts, then for runner.ts (which imports no checkpoint.ts, so with both it is the same code)", async () => {
    const phase3 = await prepareTarget(await config(await target()), deliverableModules(loadRubric(), "phase3"));
    expect(phase3.variants.map((v) => v.label)).toEqual(["", "with the stand-in checkpoint.ts", "with the stand-in runner.ts"]);
    const phase2 = await prepareTarget(await config(await target()), deliverableModules(loadRubric(), "phase2"));
    expect(phase2.variants.map((v) => v.label)).toEqual(["", "with the stand-in checkpoint.ts"]);
  });

  test("no variant's bundle holds a line of the reference solution's files that the stand-ins do not share", async () => {
    const copy = await target((t) => {
      for (const f of ["checkpoint.ts", "runner.ts"]) fs.writeFileSync(path.join(t, f), `throw new Error("student's own ${f}");\nexport {};\n`);
    });
    const prepared = await prepareTarget(await config(copy), deliverableModules(loadRubric(), "phase3"));
    const reference = ["checkpoint.ts", "runner.ts"].flatMap((f) => fs.readFileSync(path.join(SOLUTION_DIR, f), "utf8").split("\n"));
    const distinctive = reference.map((l) => l.trim()).filter((l) => l.length > 30 && !l.startsWith("//") && !l.startsWith("*") && !l.startsWith("export interface") && !/^(task|checkpointPath|maxSteps|status|nextStep|state)\??:/.test(l));
    expect(distinctive.length).toBeGreaterThan(5);
    for (const v of prepared.variants.slice(1)) {
      const text = fs.readFileSync(v.bundles.session!, "utf8");
      expect(distinctive.filter((l) => text.includes(l)), v.label).toEqual([]);
    }
  });

  test("a student's file that imports the stand-ins' primitives, a stand-in, or any other file of the grader's or the reference's does not compile", async () => {
    const grader = path.join(SOLUTION_DIR, "..", "grader");
    const copy = await target((t) => {
      fs.writeFileSync(path.join(t, "checkpoint.ts"), `export { atomicCheckpoint, loadCheckpoint } from "${path.relative(t, path.join(grader, "stand-ins", "checkpoint"))}";\n`);
      fs.writeFileSync(path.join(t, "direct.ts"), `import { save } from "@lab/stand-in";\nexport const s = save;\n`);
      fs.writeFileSync(path.join(t, "runner.ts"), `export { runTask } from "${path.relative(t, path.join(grader, "stand-ins", "runner"))}";\n`);
      // The two-prompts check's own cases (an answer to that check), by an absolute path.
      fs.writeFileSync(path.join(t, "diff.ts"), `export * from "${path.join(grader, "checks", "stretch-diff", "lab-runs")}";\n`);
      fs.writeFileSync(path.join(t, "peek.ts"), `export * from "${path.relative(t, path.join(SOLUTION_DIR, "checkpoint"))}";\n`);
    });
    expect((await bundled(copy, "direct.ts", ["checkpoint"], "d.cjs")).problem).toMatch(/@lab\/stand-in is the grader's own, for its stand-ins in place of your files/);
    // Phase 1 grades checkpoint.ts with no stand-in: the stand-in for it cannot be borrowed.
    expect((await bundled(copy, "checkpoint.ts", [], "e.cjs")).problem).toMatch(/is the grader's own file \(grader\/stand-ins\/checkpoint\): your files may import the lab/);
    // Phase 2 grades runner.ts with the stand-in for checkpoint.ts only: the stand-in runner cannot be borrowed.
    expect((await bundled(copy, "runner.ts", ["checkpoint"], "f.cjs")).problem).toMatch(/is the grader's own file \(grader\/stand-ins\/runner\)/);
    expect((await bundled(copy, "diff.ts", [], "h.cjs")).problem).toMatch(/is the grader's own file \(grader\/checks\/stretch-diff\/lab-runs\)/);
    expect((await bundled(copy, "peek.ts", [], "i.cjs")).problem).toMatch(/is the grader's own file \(solution\/checkpoint\)/);
    // Phase 3 with the stand-in for runner.ts: it compiles.
    expect((await bundled(copy, "session.ts", ["runner"], "g.cjs")).code).toBeDefined();
  });

  // Two deliverables that run checkpoint.ts bundle it to one name, in two workers at once, while
  // a host of the first may be loading it: a bundle rewritten in place can be read empty.
  test("bundling to a name that holds a bundle puts a new file there by a rename, readable by the grader's user alone: a reader of the old one reads it whole, and no other file is left", async () => {
    const copy = await target();
    const out = path.join(path.dirname(copy), "same.cjs");
    await bundled(copy, "checkpoint.ts", [], "same.cjs");
    const before = fs.readFileSync(out, "utf8");
    const held = fs.openSync(out, "r");
    try {
      touch(copy, "checkpoint.ts");
      await bundled(copy, "checkpoint.ts", [], "same.cjs");
      expect(fs.fstatSync(held).ino).not.toBe(fs.statSync(out).ino);
      expect(fs.readFileSync(held, "utf8")).toBe(before);
      expect(fs.readFileSync(out, "utf8")).toContain("LAB_EDITED_checkpoint");
      expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    } finally {
      fs.closeSync(held);
    }
    expect(fs.readdirSync(path.dirname(out)).filter((f) => f.startsWith("same.cjs"))).toEqual(["same.cjs"]);
  });
});

describe("why a variant with stand-ins did not compile, as a story tells it", () => {
  test("names the stand-in alike whatever folder the grade was started in, with no path to the grader", () => {
    const error = (from: string) => `runner.ts does not compile: runner.ts:5:10: No matching export in "${from}grader/stand-ins/checkpoint.ts" for import "Checkpointer"`;
    const told = 'with it, runner.ts does not compile (runner.ts:5:10: No matching export in the stand-in checkpoint.ts for import "Checkpointer")';
    for (const from of ["", "../../../srv/course/lab/", "../earlier-grader/"]) expect(withStandIn(error(from))).toBe(told);
  });
});
