// GRADE_CPU_PROFILE=<folder>, the developer's view of where a grade's time goes: a sandbox host
// started under it writes a V8 CPU profile there when the grader closes it.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { expect, test } from "vitest";
import { openEngine, statesPerSecond } from "../tools/bench/engine.js";

test("with GRADE_CPU_PROFILE set, a closed sandbox host leaves a CPU profile with the target's calls in it", async () => {
  const scratch = await dir({ unsafeCleanup: true, prefix: "cpu-profile-" });
  const profiles = path.join(scratch.path, "profiles");
  fs.mkdirSync(profiles, { mode: 0o777 });
  fs.chmodSync(profiles, 0o777);
  process.env.GRADE_CPU_PROFILE = profiles;
  try {
    // Each crash state recovered on its own: the profile samples a call only while it runs, and shared recoveries run few.
    const box = await openEngine(path.join(scratch.path, "work"), { shareRecoveries: false });
    try {
      await statesPerSecond(box, { a: 1 }, { a: 2 }, 200);
    } finally {
      await box.close();
    }
    const written = fs.readdirSync(profiles).filter((f) => f.endsWith(".cpuprofile"));
    expect(written.length).toBeGreaterThan(0);
    const functions = written.flatMap((f) => (JSON.parse(fs.readFileSync(path.join(profiles, f), "utf8")) as { nodes: { callFrame: { functionName: string } }[] }).nodes.map((n) => n.callFrame.functionName));
    expect(functions).toContain("loadCheckpoint");
  } finally {
    delete process.env.GRADE_CPU_PROFILE;
    await scratch.cleanup();
  }
});
