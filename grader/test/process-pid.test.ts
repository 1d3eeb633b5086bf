// A real process's id in the names it writes: the grader learns the id the target saw, and hides
// exactly that id, whatever its length (ids wrap to 3 digits on a machine that has started many
// processes), so a story repeats from grade to grade.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { SOLUTION_DIR } from "../paths.js";
import { normaliseName } from "../crash/names.js";
import { write } from "../grading/calls.js";
import { DEFAULT_LIMITS } from "../sandbox/messages/limits.js";
import { makeScenarioFolder, runProcess } from "../sandbox/supervisor/process-client.js";
import { bundleTarget } from "../target/bundle.js";
import { scratchHost } from "./support/host.js";

const host = scratchHost();

describe("normaliseName with the ids of real processes", () => {
  test("hides a known 3-digit process id, which the shape of a name alone leaves showing", () => {
    const name = ".task-checkpoint.json.588.3f9a1c2b7d4e.tmp";
    expect(normaliseName(name)).toBe(".task-checkpoint.json.588.*.tmp");
    expect(normaliseName(name, { pids: [588] })).toBe(".task-checkpoint.json.*.*.tmp");
  });

  test("hides a randomUUID whole, whatever its groups hold, so that two grades print the same name", () => {
    const names = ["task-checkpoint.json.v-1c9e2b7a-8f6c-4d2e-8c90-3a7b5e1f2d4c", "task-checkpoint.json.v-0b3e5a7c-7ee1-4dc6-a3dc-9f8e7d6c5b4a", "task-checkpoint.json.v-2a4c6e8b-dcba-41f6-b2e6-1a2b3c4d5e6f"];
    expect(names.map((n) => normaliseName(n))).toEqual(names.map(() => "task-checkpoint.json.v-*"));
  });

  test("hides a known id only where it stands as a number of its own, and ignores an unknown one", () => {
    expect(normaliseName("tmp588-state.json", { pids: [588] })).toBe("tmp*-state.json");
    expect(normaliseName("a.588.tmp", { pids: [58] })).toBe("a.588.tmp");
    // A random part holding the id's digits is hidden whole, not in pieces.
    expect(normaliseName("a.3f588e1c2b7d.tmp", { pids: [588] })).toBe("a.*.tmp");
    expect(normaliseName("step-12.json.77.tmp", { pids: [77, null] })).toBe("step-12.json.*.tmp");
    expect(normaliseName("step-12.json.77.tmp", { pids: [null] })).toBe("step-12.json.77.tmp");
  });
});

describe("a real process killed in the middle of a write", () => {
  test("reports the id its target saw, the one in the temp file it was writing", async () => {
    const targetDir = path.join(host.work, "target");
    fs.cpSync(SOLUTION_DIR, targetDir, { recursive: true });
    const bundle = await bundleTarget({ targetDir, file: "checkpoint.ts", outFile: path.join(targetDir, "checkpoint.cjs") });
    if (!bundle.ok) throw new Error(bundle.problem);
    const root = makeScenarioFolder(path.join(host.work, "killed"));
    const killed = await runProcess(host.hostFile, {
      bundle: bundle.file,
      entry: "checkpoint.ts",
      targetDir,
      root,
      steps: [write({ step: 1, data: "x".repeat(20_000) })],
      kill: { nthWrite: 1, fraction: 0.5 },
      limits: DEFAULT_LIMITS,
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.pid).toEqual(expect.any(Number));
    const file = path.basename(killed.torn!.file!);
    expect(file.split(".")).toContain(String(killed.pid));
    // The same name with the id wrapped to 3 digits reads the same once normalised.
    const wrapped = file.replace(String(killed.pid), "588");
    expect(normaliseName(wrapped, { pids: [588] })).toBe(normaliseName(file, { pids: [killed.pid] }));
    expect(normaliseName(file, { pids: [killed.pid] })).toBe(".checkpoint.json.*.*.tmp");
  });
});
